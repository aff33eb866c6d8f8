#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <filesystem>

#include "cli/commands.h"
#include "core/sysinfo.h"
#include "perfgate/error.h"
#include "perfgate/main.h"
#include "perfgate/registry.h"

namespace perfgate {

std::string Context::thresholds_dir() const {
  const std::string own = project_dir + "/thresholds";
  if (installed_thresholds_dir.empty() || std::filesystem::is_directory(own)) return own;
  return installed_thresholds_dir;
}

int perfgate_main(int argc, char** argv, const char* project_dir) {
  Project project;
  project.dir = project_dir ? project_dir : ".";
  project.peak_kernels_in_suite = true;
  return perfgate_main(argc, argv, project);
}

int perfgate_main(int argc, char** argv, const Project& project) {
  set_peak_kernels_in_suite(project.peak_kernels_in_suite);
  set_build_identity({project.compiler ? project.compiler : "", project.build_type ? project.build_type : "",
                      project.build_flags ? project.build_flags : ""});
  CLI::App app{
      "perfgate: a performance regression gate for compute kernels.\n"
      "Measures each kernel's latency and bandwidth, judges it against the approved\n"
      "baseline under the YAML thresholds, and fails on a real regression.\n"
      "Exit codes: 0 pass/improved, 1 regressed, 2 error, 77 skipped (no device or baseline)."};
  app.set_version_flag("--version", perfgate_version());
  app.require_subcommand(0, 1);
  Context context;
  context.project_dir = project.dir && *project.dir ? project.dir : ".";
  context.installed_thresholds_dir = project.thresholds_dir ? project.thresholds_dir : "";
  if (argc > 0 && argv[0] && *argv[0]) {
    context.binary_name = std::filesystem::path(argv[0]).filename().string();
    context.program = argv[0];
  }
  add_run_command(app, context);
  add_check_command(app, context);
  add_list_command(app, context);
  add_compare_command(app, context);
  add_baseline_command(app, context);
  add_report_command(app, context);
  add_history_command(app, context);
  add_notify_command(app, context);
  add_serve_command(app, context);
  add_measure_command(app, context);
  try {
    if (argc == 1) {  // plain `perfgate` is `perfgate run`
      const char* run_args[] = {argv[0], "run", nullptr};
      app.parse(2, const_cast<char**>(run_args));
    } else {
      app.parse(argc, argv);
    }
    if (app.get_subcommands().empty()) {
      std::fputs(app.help().c_str(), stdout);
      return 0;
    }
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "perfgate: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfgate: internal error: %s\n", e.what());
    return 2;
  }
  return context.exit_code;
}

}  // namespace perfgate
