// perfgate check: what each CTest test runs, with CTestMeasurement output and the verdict's exit
// code.
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/ctest_resources.h"
#include "cli/options.h"
#include "cli/run_cases.h"
#include "cli/run_info.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

std::map<Backend, std::vector<CaseSpec>> by_backend(const std::vector<CaseSpec>& cases) {
  std::map<Backend, std::vector<CaseSpec>> groups;
  for (const auto& c : cases) groups[c.backend].push_back(c);
  return groups;
}

}  // namespace

int check_main(RunFlags flags) {
  // The one place PERFGATE_BASE is read: `ctest -L perf` in a pull request gates head against
  // base with no CMake change. An explicit --base wins.
  if (const char* base = std::getenv("PERFGATE_BASE"); flags.base.empty() && base && *base) flags.base = base;
  // Under `ctest --resource-spec-file` a Vulkan perf test runs on the GPU ctest allocated to it
  // (RESOURCE_GROUPS gpus:1), so N GPUs run N cases at once; an explicit --device wins.
  if (auto slot = gpu_slot_from_ctest(std::getenv("CTEST_RESOURCE_GROUP_COUNT"),
                                      std::getenv("CTEST_RESOURCE_GROUP_0_GPUS"));
      slot && flags.common.device.empty()) {
    flags.common.device = slot->device;
    flags.gpu_slot = slot->resource_id;
  }
  if (flags.common.cases.empty() && flags.common.kernel_globs.empty())
    throw Error("check: name the cases to check (perfgate list shows them)");
  std::vector<CaseSpec> cases;
  std::vector<std::string> globs;
  for (const auto& arg : flags.common.cases) {
    if (arg.find_first_of("*?[") == std::string::npos && arg.find('/') != std::string::npos)
      cases.push_back(parse_case_id(arg));
    else
      globs.push_back(arg);
  }
  if (!globs.empty() || cases.empty()) {
    CommonOptions narrowed = flags.common;
    narrowed.cases = globs;
    std::vector<Backend> backends;
    if (!flags.common.backend.empty()) backends.push_back(backend_from_string(flags.common.backend));
    for (auto& c : select_cases(narrowed.selection(backends))) cases.push_back(std::move(c));
  }
  RunResult run = new_run({}, flags.project_dir);
  if (!flags.base.empty())
    run_ab(flags, cases, run);
  else
    for (const auto& [backend, group] : by_backend(cases)) run_backend(flags, backend, group, run, true);
  return finish(flags, run, true);
}

}  // namespace perfgate
