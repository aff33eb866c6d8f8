#include "judge/busy_runs.h"

#include <algorithm>
#include <cstdio>

#include "core/cpu_wait.h"
#include "judge/verdict.h"

namespace perfgate {

std::optional<std::string> busy_runs(const std::map<std::string, std::vector<std::vector<double>>>& runs,
                                     const Thresholds& thresholds) {
  std::optional<CaseNoise> noise = latency_noise(runs, thresholds);
  if (!noise) return std::nullopt;
  // Whether the machine was busy is a matter of how far the runs spread, not of how little a few
  // runs pin that spread down: the allowance their sigma itself gives, without the small-sample
  // bound a check applies (stats/run_noise.h).
  RunNoise shown = noise->noise;
  shown.sigma_bound_pct = shown.sigma_pct;
  noise->allowance = allowed_regression(shown, thresholds.metrics.at(noise->metric), thresholds.noise_factor);
  // What the thresholds allow with no noise at all: the runs widened it past this.
  const double own =
      allowed_regression(RunNoise{}, thresholds.metrics.at(noise->metric), thresholds.noise_factor).pct;
  if (noise->allowance.pct <= std::max(own, thresholds.propose_max_allowed_pct)) return std::nullopt;
  char allowed[96];
  std::snprintf(allowed, sizeof allowed, "would allow %.0f%% (propose_max_allowed_pct: %g%%)",
                noise->allowance.pct, thresholds.propose_max_allowed_pct);
  return noise->metric + " " + noise->allowance.why + "; " + allowed;
}

std::optional<std::string> waited_for_cores(const CaseResult& result) {
  if (!result.calibration_reference.empty() || !(result.cpu_wait_share > kBusyCpuWaitShare)) return std::nullopt;
  char text[128];
  std::snprintf(text, sizeof text, "its threads waited for a core %.0f%% of its raw-timed measurement",
                100 * result.cpu_wait_share);
  return std::string(text);
}

}  // namespace perfgate
