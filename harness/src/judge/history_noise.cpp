#include "judge/history_noise.h"

#include <algorithm>
#include <cstdio>
#include <span>

#include "judge/history_analysis.h"
#include "stats/change_points.h"
#include "stats/chi_squared.h"
#include "stats/run_noise.h"

namespace perfgate {

std::map<std::string, HistoryNoise> history_noise(const std::vector<HistoryPoint>& points,
                                                  const ThresholdSet& thresholds, const std::string& device_uuid) {
  std::vector<HistoryPoint> own;
  for (const HistoryPoint& p : points)
    if (device_uuid.empty() || p.device_uuid.empty() || p.device_uuid == device_uuid) own.push_back(p);
  std::map<std::string, HistoryNoise> out;
  for (const CaseHistory& h : analyse_history(own, thresholds, nullptr, {})) {
    // The newest runs, steps and all: a step moves one difference of neighbouring runs, which
    // series_noise_pct's 75th percentile does not follow once there are enough of them (a
    // change point located a run early would put a step inside a newest segment of five).
    const int runs = std::min<int>(static_cast<int>(h.values.size()), kHistoryNoiseWindow);
    if (runs < kHistoryNoiseRuns) continue;
    HistoryNoise n;
    n.metric = h.metric;
    n.runs = runs;
    n.sigma_pct = series_noise_pct(std::span<const double>(h.values).last(runs));
    n.bound_pct = n.sigma_pct * sigma_upper_factor(runs, kSigmaConfidence);
    char why[160];
    std::snprintf(why, sizeof why, "the history's %d runs on this machine spread %.2g%% (%g%% bound %.2g%%)", runs,
                  n.sigma_pct, 100 * kSigmaConfidence, n.bound_pct);
    n.why = why;
    out[h.case_id] = n;
  }
  return out;
}

}  // namespace perfgate
