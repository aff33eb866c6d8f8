#pragma once
// What every command starts from: the project whose folders are the defaults, and the command as
// it was typed. perfgate_main (cli/perfgate_main.cpp) makes it once, the command line
// (cli/command_line.cpp) gives the options their defaults from it, and a command's callback sets
// its exit code.
#include <string>

namespace perfgate {

struct Context {
  int exit_code = 0;
  // The project whose baselines/ and thresholds/ folders are the defaults.
  std::string project_dir;
  // The installed default thresholds, used when the project has no thresholds/ folder.
  std::string installed_thresholds_dir;
  // This command as it was typed (argv[0]: "build/perfgate"), for commands printed to be pasted.
  std::string program = "perfgate";
  // $PERFGATE_BASELINES_DIR where set (a CI job keeping its approved baselines elsewhere, a test
  // with an empty folder), else the project's baselines/.
  std::string baselines_dir() const;
  std::string thresholds_dir() const;
};

}  // namespace perfgate
