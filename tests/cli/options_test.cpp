// The selection options every measuring command shares, parsed by the real command line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"

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
  args.insert(args.begin(), {"perfgate", "list", "--ctest", "--backend", "cpu"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  Context context;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Listed listed;
  listed.exit_code = run_command_line(static_cast<int>(argv.size()), argv.data(), context);
  std::istringstream lines(testing::internal::GetCapturedStdout());
  listed.errors = testing::internal::GetCapturedStderr();
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

}  // namespace
}  // namespace perfgate
