#pragma once
// Each command adds itself to the CLI11 app; its callback stores the exit code in `exit_code`.
// A command throws perfgate::Error for bad input: perfgate_main prints it and exits 2.
#include <string>

// Only declarations here: CLI11's header costs every unit that includes it seconds of compile
// time, so it is included by the units that build or parse options, not by this header.
namespace CLI {
class App;
}  // namespace CLI

namespace perfgate {

struct Context {
  int exit_code = 0;
  // The project whose baselines/ and thresholds/ folders are the defaults.
  std::string project_dir;
  // The installed default thresholds, used when the project has no thresholds/ folder.
  std::string installed_thresholds_dir;
  // This command's own name, as the hints it prints spell it (a project's own perfgate command).
  std::string binary_name = "perfgate";
  // This command as it was typed (argv[0]: "build/perfgate"), for commands printed to be pasted.
  std::string program = "perfgate";
  std::string baselines_dir() const { return project_dir + "/baselines"; }
  std::string thresholds_dir() const;
};

void add_run_command(CLI::App& app, Context& context);  // also the default command
void add_check_command(CLI::App& app, Context& context);
void add_list_command(CLI::App& app, Context& context);
void add_compare_command(CLI::App& app, Context& context);
void add_baseline_command(CLI::App& app, Context& context);  // propose, approve, show, diff, drop
void add_report_command(CLI::App& app, Context& context);
void add_history_command(CLI::App& app, Context& context);
void add_notify_command(CLI::App& app, Context& context);
void add_serve_command(CLI::App& app, Context& context);    // hidden: one side of an A/B check
void add_measure_command(CLI::App& app, Context& context);  // hidden: a fresh process confirming a regression

}  // namespace perfgate
