#include "judge/ab_allowance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "judge/judge_case.h"
#include "perfgate/metric_names.h"
#include "stats/run_noise.h"

namespace perfgate {
namespace {

std::string pct_text(double pct) { return pct >= 10 ? fmt::format("{:.0f}%", pct) : fmt::format("{:.2g}%", pct); }

// Whether the baseline's runs were measured where this check runs: its GPU, or on a CPU
// implementation its host. A baseline naming neither speaks for no particular machine.
bool measured_here(const Fingerprint& then, const Fingerprint& here) {
  if (!here.device_uuid.empty()) return then.device_uuid == here.device_uuid;
  return !here.host_id.empty() && then.host_id == here.host_id;
}

}  // namespace

AbAllowance ab_allowance(const Thresholds& thresholds, const BaselineCase* baseline, const Fingerprint& here) {
  AbAllowance prior{thresholds.ab_max_regression_pct, "fixed", "fixed ab_max_regression_pct"};
  if (!baseline) {
    prior.why += "; no baseline of the case on " + here.machine_id +
                 " measures how far two of its processes differ (one approved here makes it finer)";
    return prior;
  }
  const BaselineCase own = runs_of_device(*baseline, here.device_uuid);
  if (!measured_here(own.fingerprint, here)) {
    prior.why += "; the case's baseline was measured on another device or host";
    return prior;
  }
  const auto runs = own.runs.find(metric::latency_ns);
  if (runs == own.runs.end() || runs->second.size() < 2) {
    prior.why += "; the case's baseline holds fewer than 2 runs";
    return prior;
  }
  // Every run counts, none left out as a neighbour's: two processes of an A/B meet whatever mode
  // the device is in, as the runs did.
  const RunNoise noise = run_noise(runs->second, 0, thresholds.noise_factor, false);
  double pct = thresholds.noise_factor * std::sqrt(2.0) * noise.sigma_bound_pct;
  std::string why = fmt::format("{:g} x sqrt(2) x sigma <= {} ({} runs of this device's baseline, {:g}% bound)",
                                thresholds.noise_factor, pct_text(noise.sigma_bound_pct), noise.counted_runs,
                                100 * kSigmaConfidence);
  if (noise.unstable && 1.5 * noise.range_pct > pct) {
    pct = 1.5 * noise.range_pct;
    why = "unstable, " + noise.why + ": 1.5 x the runs' span";
  }
  const auto latency = thresholds.metrics.find(metric::latency_ns);
  if (latency != thresholds.metrics.end() && latency->second.min_change && noise.centre > 0) {
    const double resolution = 100 * *latency->second.min_change / noise.centre;
    if (resolution > pct) {
      pct = resolution;
      why = "min_change " + pct_text(resolution) + " of its time, finer than the timer resolves";
    }
  }
  if (pct >= prior.pct) {
    prior.why += "; this device's baseline runs spread wider (" + why + ")";
    return prior;
  }
  return {pct, "noise", why};
}

}  // namespace perfgate
