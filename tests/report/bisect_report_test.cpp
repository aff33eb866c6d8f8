// What bisect prints: a row per step, `first bad commit: <sha> <subject>` with its change and
// interval, a step split over two commits, the commits left open by skipped ones, "no commit is
// slower", and the culprits against a change point's magnitude.
#include "report/bisect_report.h"

#include <gtest/gtest.h>

#include <string>

namespace perfgate {
namespace {

BisectStep report_step(const std::string& head, const std::string& base, StepOutcome outcome, double ratio) {
  BisectStep s;
  s.head = head;
  s.base = base;
  s.outcome = outcome;
  s.ratio = ratio;
  s.low = ratio > 0 ? ratio - 0.02 : 0;
  s.high = ratio > 0 ? ratio + 0.02 : 0;
  s.rounds = ratio > 0 ? 20 : 0;
  s.build_s = 4;
  s.measure_s = 5;
  if (outcome == StepOutcome::skipped) s.message = "does not build: exit 1 (log: x.log)";
  return s;
}

std::string report_sha(char c) { return std::string(40, c); }

BisectOutcome planted_outcome() {
  BisectOutcome o;
  o.case_ids = {"spin/cpu/n=1048576"};
  o.commits = {{report_sha('0'), "root"},
               {report_sha('1'), "notes", true},
               {report_sha('2'), "broken"},
               {report_sha('3'), "three more passes"},
               {report_sha('4'), "tip"}};
  o.end = BisectEnd::found;
  o.total = report_step(report_sha('4'), report_sha('0'), StepOutcome::slower, 1.30);
  o.steps = {*o.total, report_step(report_sha('2'), report_sha('0'), StepOutcome::skipped, 0),
             report_step(report_sha('3'), report_sha('0'), StepOutcome::slower, 1.31)};
  Culprit c;
  c.index = 3;
  c.candidates = {3};
  c.step = o.steps[2];
  o.culprits = {c};
  o.builds = 4;
  o.failed_builds = 1;
  o.wall_s = 61;
  return o;
}

TEST(BisectReport, NamesTheFirstBadCommitWithItsChange) {
  const BisectOutcome o = planted_outcome();
  const std::string steps = render_bisect_steps(o);
  EXPECT_NE(steps.find("skipped"), std::string::npos) << steps;
  EXPECT_NE(steps.find("1.310 [1.290, 1.330]"), std::string::npos) << steps;
  const std::string text = render_bisect_conclusion(o);
  EXPECT_NE(text.find("first bad commit: " + report_sha('3') + " three more passes"), std::string::npos)
      << text;
  EXPECT_NE(text.find("+31.0% (interval +29.0% to +33.0%)"), std::string::npos) << text;
  EXPECT_NE(text.find("builds: 4 (1 could not be measured)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 commit changing only unrelated files not built"), std::string::npos) << text;
  EXPECT_EQ(text.find("no commit is slower"), std::string::npos);
  const auto bisect_doc = bisect_json(o);
  EXPECT_EQ(bisect_doc["first_bad"], report_sha('3'));
  EXPECT_EQ(bisect_doc["steps"].size(), 3u);
  EXPECT_EQ(bisect_doc["unrelated_commits"].size(), 1u);
}

// A commit subject's terminal escapes (an OSC title, a screen clear) are shown as text in the
// table, the step line and the conclusion; the JSON keeps the subject as it is.
TEST(BisectReport, ATerminalEscapeInASubjectIsShownAsText) {
  BisectOutcome o = planted_outcome();
  o.commits[3].subject = "\x1b]0;owned\x07 \x1b[2J three more passes";
  const std::string printed =
      render_bisect_steps(o) + render_bisect_conclusion(o) + render_bisect_step_line(o, o.steps[2]);
  EXPECT_EQ(printed.find('\x1b'), std::string::npos) << printed;
  EXPECT_EQ(printed.find('\x07'), std::string::npos) << printed;
  EXPECT_NE(
      printed.find("first bad commit: " + report_sha('3') + " \\e]0;owned\\x07 \\e[2J three more passes"),
      std::string::npos)
      << printed;
  EXPECT_EQ(bisect_json(o)["culprits"][0]["subject"], o.commits[3].subject);
}

TEST(BisectReport, ASubPercentStepOfSeveralPairsKeepsItsHundredths) {
  BisectOutcome o = planted_outcome();
  BisectStep& found = o.culprits[0].step;
  found.ratio = 1.0034;
  found.low = 1.0022;
  found.high = 1.0046;
  found.pairs["spin/cpu/n=1048576"] = std::vector<double>(20, 1.0034);
  const std::string text = render_bisect_conclusion(o);
  EXPECT_NE(text.find("+0.34% (interval +0.22% to +0.46%), A/B over 20 pairs (20 rounds)"), std::string::npos)
      << text;
  EXPECT_NE(render_bisect_step_line(o, found).find("over 20 pairs"), std::string::npos);
  EXPECT_EQ(bisect_json(o)["culprits"][0]["step"]["pairs"]["spin/cpu/n=1048576"].size(), 20u);
}

TEST(BisectReport, CommitsLeftOpenBySkippedOnesAreNamed) {
  BisectOutcome o = planted_outcome();
  o.culprits[0].candidates = {2, 3};
  const std::string text = render_bisect_conclusion(o);
  EXPECT_NE(text.find("or one of the commits before it that could not be measured: 222222222222"),
            std::string::npos)
      << text;
  EXPECT_FALSE(bisect_json(o)["culprits"][0]["exact"].get<bool>());
}

TEST(BisectReport, AStepSplitOverTwoCommitsNamesBoth) {
  BisectOutcome o = planted_outcome();
  Culprit second;
  second.index = 4;
  second.candidates = {4};
  second.base = 3;
  second.step = report_step(report_sha('4'), report_sha('3'), StepOutcome::slower, 1.15);
  o.culprits.push_back(second);
  const std::string text = render_bisect_conclusion(o);
  EXPECT_NE(text.find("split over 2 commits"), std::string::npos) << text;
  EXPECT_NE(text.find("next bad commit: " + report_sha('4') + " tip"), std::string::npos) << text;
  EXPECT_TRUE(bisect_json(o)["split"].get<bool>());
}

TEST(BisectReport, NoSlowdownSaysSo) {
  BisectOutcome o = planted_outcome();
  o.end = BisectEnd::none_slower;
  o.total = report_step(report_sha('4'), report_sha('0'), StepOutcome::not_slower, 1.002);
  o.culprits.clear();
  o.steps = {*o.total};
  const std::string text = render_bisect_conclusion(o);
  EXPECT_NE(text.find("no commit is slower: 444444444444"), std::string::npos) << text;
  EXPECT_EQ(text.find("first bad commit"), std::string::npos);
  EXPECT_TRUE(bisect_json(o)["first_bad"].is_null());
}

TEST(BisectReport, TheCulpritIsCheckedAgainstTheChangePoint) {
  BisectOutcome o = planted_outcome();
  o.expected = ExpectedStep{"cp-0123456789ab", "cpu-test-2t", 30.5, 28.0, 33.0};
  EXPECT_NE(render_bisect_conclusion(o).find("against the change point cp-0123456789ab: consistent"),
            std::string::npos);
  o.expected = ExpectedStep{"cp-0123456789ab", "cpu-test-2t", 60.0, 55.0, 65.0};
  EXPECT_NE(magnitude_check(o).find("smaller than the change point's"), std::string::npos)
      << magnitude_check(o);
  EXPECT_EQ(bisected_record(o, "now").commits.at(0).sha, report_sha('3'));
}

}  // namespace
}  // namespace perfgate
