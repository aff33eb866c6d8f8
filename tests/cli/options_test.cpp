// The selection options every measuring command shares, parsed by the real command line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_run.h"

namespace perfgate {
namespace {

struct Listed {
  int exit_code = 0;
  std::set<std::string> kernels;
  std::set<std::string> cases;
  std::string errors;
};

// `perfgate list --ctest ARGS...`: the kernels and cases it selects, one line each.
Listed list_ctest(std::vector<std::string> args) {
  args.insert(args.begin(), {"list", "--ctest", "--backend", "cpu"});
  const testing::CommandRun run = testing::run_perfgate(args);
  Listed listed;
  listed.exit_code = run.exit_code;
  listed.errors = run.errors;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {  // <case id> <kernel> <backend> <needs>
    std::istringstream fields(line);
    std::string id, kernel;
    fields >> id >> kernel;
    listed.cases.insert(id);
    listed.kernels.insert(kernel);
  }
  return listed;
}

TEST(CliOptions, KernelRepeatsAndEachTakesOneGlob) {
  const Listed both = list_ctest({"--kernel", "copy", "--kernel", "fill"});
  EXPECT_EQ(both.exit_code, 0) << both.errors;
  EXPECT_EQ(both.kernels, (std::set<std::string>{"copy", "fill"}));
  // The value after a --kernel's one glob is a case glob again: it narrows to copy's cases.
  const Listed narrowed = list_ctest({"--kernel", "copy", "--kernel", "fill", "copy/cpu/*"});
  EXPECT_EQ(narrowed.exit_code, 0) << narrowed.errors;
  EXPECT_EQ(narrowed.kernels, (std::set<std::string>{"copy"}));
  EXPECT_FALSE(narrowed.cases.empty());
}

TEST(CliOptions, AKernelGlobSelectsEveryKernelItMatches) {
  const Listed matmuls = list_ctest({"--kernel", "matmul*"});
  EXPECT_EQ(matmuls.exit_code, 0) << matmuls.errors;
  EXPECT_TRUE(matmuls.kernels.count("matmul") && matmuls.kernels.count("matmul_f16")) << matmuls.kernels.size();
  const Listed none = list_ctest({"--kernel", "copy", "--kernel", "nosuch*"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.errors.find("--kernel 'nosuch*' matches no kernel"), std::string::npos) << none.errors;
}

// The approved baselines folder is the project's unless PERFGATE_BASELINES_DIR names another
// (an empty value is unset).
TEST(CliOptions, BaselinesFolderFollowsTheEnvironment) {
  Context context;
  context.project_dir = "/project";
  const char* saved = std::getenv("PERFGATE_BASELINES_DIR");
  const std::string kept = saved ? saved : "";
  ::unsetenv("PERFGATE_BASELINES_DIR");
  EXPECT_EQ(context.baselines_dir(), "/project/baselines");
  ::setenv("PERFGATE_BASELINES_DIR", "", 1);
  EXPECT_EQ(context.baselines_dir(), "/project/baselines");
  ::setenv("PERFGATE_BASELINES_DIR", "/ci/approved", 1);
  EXPECT_EQ(context.baselines_dir(), "/ci/approved");
  if (saved)
    ::setenv("PERFGATE_BASELINES_DIR", kept.c_str(), 1);
  else
    ::unsetenv("PERFGATE_BASELINES_DIR");
}

// Every floating-point option refuses nan and inf, which pass any comparison (a bisect --allowed nan
// called a 2x slower range "no commit is slower"), and says its range in plain numbers.
TEST(CliOptions, EveryFloatOptionIsFiniteWithinItsRange) {
  const std::string file =
      PERFGATE_SOURCE_DIR "/CMakeLists.txt";  // any existing file: refused before it is read
  const std::vector<std::pair<std::vector<std::string>, std::string>> commands = {
      {{"bisect", "--allowed"}, "above 0"},
      {{"baseline", "approve", file, "--by", "a", "--reason", "b", "--max-age"}, "0 or more"},
      {{"baseline", "approve", file, "--by", "a", "--reason", "b", "--lock-timeout"}, "from 0 to 3600"},
      {{"baseline", "drop", "x", "--by", "a", "--reason", "b", "--lock-timeout"}, "from 0 to 3600"},
  };
  for (const auto& [words, range] : commands) {
    for (const std::string value : {"nan", "-nan", "inf", "-inf", "1e999", "x", "-1", "1e308"}) {
      if (value == "1e308" && range != "from 0 to 3600") continue;  // in range where there is no upper bound
      std::vector<std::string> args = words;
      args.push_back(value);
      const testing::CommandRun run = testing::run_perfgate(args);
      const int rc = run.exit_code;
      const std::string& errors = run.errors;
      const std::string option = words.back();
      EXPECT_EQ(rc, 2) << option << " " << value << ": " << errors;
      EXPECT_NE(errors.find(option + ": '" + value + "' is "), std::string::npos) << errors;
      EXPECT_NE(errors.find("(expected " + range + ")"), std::string::npos) << errors;
      EXPECT_LT(errors.size(), 200u) << "no double's limit in full: " << errors;
    }
  }
}

}  // namespace
}  // namespace perfgate
