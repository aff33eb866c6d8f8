#pragma once
// Other programs run by a command: git (argument lists, no shell, output captured) and a user's
// build command templates (`sh -c`, output to a log file). Each child ends with this process
// where it is killed (a cancelled CI job), as every child perfgate does.
#include <filesystem>
#include <string>
#include <vector>

namespace perfgate {

struct CommandOutput {
  int exit_code = 0;  // 128 + signal when killed; 127 when it could not be run
  std::string stdout_text;
  std::string stderr_text;
};

// Runs `argv` (argv[0] found on PATH) in `dir`, capturing both outputs.
CommandOutput capture_command(const std::vector<std::string>& argv, const std::filesystem::path& dir);

// Runs `command` through /bin/sh in `dir`, stdout and stderr appended to `log`. Its exit code.
int run_shell_command(const std::string& command, const std::filesystem::path& dir,
                      const std::filesystem::path& log);

}  // namespace perfgate
