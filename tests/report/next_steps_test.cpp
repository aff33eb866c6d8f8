#include "report/next_steps.h"

#include <gtest/gtest.h>

#include "report/report_fixture.h"

namespace perfgate {
namespace {

RunResult run_without_baselines(int cases) {
  RunResult run = test::mixed_run();
  run.cases.clear();
  for (int i = 0; i < cases; ++i)
    run.cases.push_back(
        test::measured_case("copy", Params({{"n", 1024 << i}}), 1000, 8192, 0, Verdict::no_baseline));
  return run;
}

InvocationArgs invocation() {
  return {"build/perfgate",
          {"copy/cpu/*", "--backend", "cpu"},
          {"--thresholds", "/tmp/t h"},
          {"--baselines", "/tmp/b"},
          "/tmp/b"};
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ReportNextSteps, OncePerRunWithTheCommandsForThisMachine) {
  const std::string text = render_next_steps(run_without_baselines(3), invocation(), false);
  EXPECT_NE(text.find("No baselines for cpu-test-machine-2t yet: 3 cases measured, none judged."),
            std::string::npos)
      << text;
  EXPECT_EQ(count(text, "baseline propose"), 1u) << text;
  EXPECT_NE(text.find("  build/perfgate baseline propose 'copy/cpu/*' --backend cpu --thresholds '/tmp/t h' "
                      "--out candidate-cpu-test-machine-2t.yaml --baselines /tmp/b\n"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("  build/perfgate baseline approve candidate-cpu-test-machine-2t.yaml --baselines /tmp/b "
                "--by NAME --reason TEXT\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("  build/perfgate check 'copy/cpu/*' --backend cpu --thresholds '/tmp/t h' --baselines "
                      "/tmp/b --base BUILD\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("then commit /tmp/b/cpu-test-machine-2t/;"), std::string::npos) << text;
}

TEST(ReportNextSteps, NamesTheProjectsBaselinesFolderByDefault) {
  InvocationArgs how = invocation();
  how.place.clear();
  how.baselines_dir = InvocationArgs{}.baselines_dir;
  const std::string text = render_next_steps(run_without_baselines(1), how, false);
  EXPECT_NE(text.find("then commit baselines/cpu-test-machine-2t/;"), std::string::npos) << text;
}

TEST(ReportNextSteps, NamesOnlyTheMissingCasesWhereTheMachineHasBaselines) {
  RunResult run = run_without_baselines(2);
  run.cases[0].verdict = Verdict::pass;
  const std::string text = render_next_steps(run, invocation(), true);
  EXPECT_NE(text.find("1 case measured with no baseline on cpu-test-machine-2t: not judged."),
            std::string::npos)
      << text;
}

TEST(ReportNextSteps, SilentWhenEveryCaseWasJudged) {
  RunResult run = run_without_baselines(2);
  for (auto& c : run.cases) c.verdict = Verdict::pass;
  EXPECT_EQ(render_next_steps(run, invocation(), true), "");
  run.cases[1].verdict = Verdict::skipped;
  EXPECT_EQ(render_next_steps(run, invocation(), true), "");
}

TEST(ReportNextSteps, ShellWordsQuoteOnlyWhatTheShellWouldChange) {
  EXPECT_EQ(shell_word("copy/cpu/n=1048576"), "copy/cpu/n=1048576");
  EXPECT_EQ(shell_word("--axis"), "--axis");
  EXPECT_EQ(shell_word("copy/cpu/*"), "'copy/cpu/*'");
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word(""), "''");
}

}  // namespace
}  // namespace perfgate
