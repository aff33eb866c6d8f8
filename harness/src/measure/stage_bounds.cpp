#include "measure/stage_bounds.h"

#include "measure/bound.h"
#include "perfgate/error.h"
#include "perfgate/registry.h"

namespace perfgate {

StageCosts stage_costs_from_registry(const CaseResult& result) {
  StageCosts costs;
  const auto underscore = result.kernel.rfind('_');
  const std::string family =
      result.kernel.substr(0, underscore == std::string::npos ? result.kernel.size() : underscore);
  for (const auto& stage : result.stages) {
    const KernelDef* kernel = find_kernel(family + "_" + stage.name);
    if (!kernel) continue;
    try {
      costs[stage.name] = kernel->cost_of(result.params);
    } catch (const Error&) {
      // The stage kernel needs an axis this case does not have: its cost stays unknown.
    }
  }
  return costs;
}

void classify_stages(CaseResult& result, const StageCosts& costs, const Peaks& peaks) {
  for (StageTiming& stage : result.stages) {
    stage.bound.clear();
    stage.bound_reason.clear();
    stage.pct_of_peak = 0;
    const auto cost = costs.find(stage.name);
    if (cost == costs.end() || stage.latency_ns <= 0) continue;
    const bool in_cache = peaks.cache_bytes > 0 && cost->second.bytes() <= peaks.cache_bytes;
    const BoundCall call = classify_bound(cost->second, stage.latency_ns, in_cache, peaks);
    stage.bound = call.bound;
    stage.bound_reason = call.reason;
    stage.pct_of_peak = call.pct_of_peak;
  }
}

}  // namespace perfgate
