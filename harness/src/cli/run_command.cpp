// perfgate run: the default suite on the best device here, with a readable table.
#include <algorithm>
#include <random>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_cases.h"
#include "cli/run_info.h"

namespace perfgate {

int run_main(const RunFlags& flags) {
  Backend backend = flags.common.backend.empty() ? best_backend(flags.common.device)
                                                 : backend_from_string(flags.common.backend);
  Selection selection = flags.common.selection({backend});
  selection.default_suite_only = true;
  auto cases = select_cases(selection);
  if (flags.order_seed != 0) {
    std::mt19937_64 rng(flags.order_seed);
    std::shuffle(cases.begin(), cases.end(), rng);
  }
  RunResult run = new_run({}, flags.project_dir);
  run_backend(flags, backend, cases, run, false);
  return finish(flags, run, false);
}

}  // namespace perfgate
