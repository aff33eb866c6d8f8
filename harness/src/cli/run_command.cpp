// perfgate run: the default suite on the best device here, with a readable table.
#include <algorithm>
#include <optional>
#include <random>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_cases.h"
#include "cli/run_info.h"

namespace perfgate {

namespace {

// The backend every case glob names in its second segment ("copy/vulkan/*"), or nullopt where
// one names none or they differ: `perfgate run 'copy/vulkan/*'` on a machine whose best device is
// its CPU means llvmpipe's copy, not "matches no case".
std::optional<Backend> backend_of_globs(const std::vector<std::string>& globs) {
  std::optional<Backend> named;
  for (const std::string& glob : globs) {
    const auto first = glob.find('/');
    if (first == std::string::npos) return std::nullopt;
    const std::string segment = glob.substr(first + 1, glob.find('/', first + 1) - first - 1);
    std::optional<Backend> backend;
    if (segment == "cpu") backend = Backend::cpu;
    if (segment == "vulkan") backend = Backend::vulkan;
    if (!backend || (named && *named != *backend)) return std::nullopt;
    named = backend;
  }
  return named;
}

}  // namespace

int run_main(const RunFlags& flags) {
  const std::optional<Backend> named = backend_of_globs(flags.common.cases);
  Backend backend = !flags.common.backend.empty() ? backend_from_string(flags.common.backend)
                    : named                       ? *named
                                                  : best_backend(flags.common.device);
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
