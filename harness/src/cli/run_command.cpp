// perfgate run: the default suite on the best device here, with a readable table.
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_cases.h"
#include "cli/run_info.h"

namespace perfgate {
namespace {

int run_main(const RunFlags& flags) {
  Backend backend = flags.common.backend.empty() ? best_backend(flags.common.device)
                                                 : backend_from_string(flags.common.backend);
  Selection selection = flags.common.selection({backend});
  selection.default_suite_only = true;
  const auto cases = select_cases(selection);
  RunResult run = new_run({}, flags.project_dir);
  run_backend(flags, backend, cases, run, false);
  return finish(flags, run, false);
}

}  // namespace

void add_run_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* run = app.add_subcommand(
      "run", "Run the default suite on the best device here and print a table (the default command)");
  set_context(*flags, context);
  add_selection_options(*run, flags->common);
  add_run_options(*run, flags->common, context);
  run->add_flag("--no-judge", flags->no_judge, "Measure only; do not compare with baselines");
  run->add_option("--trace", flags->trace_file,
                  "Write the run as a timeline FILE.json (Chrome Trace Event Format: Perfetto, speedscope)");
  run->add_option(
      "--events", flags->events_file,
      "Append one JSON line per dispatch (geometry, GPU ns, host encode ns) and per case to FILE");
  run->callback([flags, &context] { context.exit_code = run_main(*flags); });
}

}  // namespace perfgate
