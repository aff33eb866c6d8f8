#pragma once
// The real command line run in this process (run_command_line), its output captured: what the
// CLI tests assert on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/commands.h"

namespace perfgate::testing {

struct CommandRun {
  int exit_code = 0;
  std::string out;
  std::string errors;
};

// `args` after the program's name ("list", "--ctest", ...).
inline CommandRun run_perfgate(std::vector<std::string> args) {
  args.insert(args.begin(), "perfgate");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  Context context;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  CommandRun run;
  run.exit_code = run_command_line(static_cast<int>(argv.size()), argv.data(), context);
  run.out = ::testing::internal::GetCapturedStdout();
  run.errors = ::testing::internal::GetCapturedStderr();
  return run;
}

}  // namespace perfgate::testing
