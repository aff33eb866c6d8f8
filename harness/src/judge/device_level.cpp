#include "judge/device_level.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "judge/history_noise.h"
#include "stats/metric_samples.h"
#include "stats/student_t.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// The standard error of the mean of `values`, relative to `centre`.
double relative_standard_error(const std::vector<double>& values, double centre) {
  if (values.size() < 2 || centre == 0) return 0;
  return summarize(values).stddev / std::abs(centre) / std::sqrt(static_cast<double>(values.size()));
}

}  // namespace

std::vector<const HistoryPoint*> offset_runs(const std::vector<HistoryPoint>& own, const BaselineCase& baseline,
                                             const std::string& driver) {
  std::vector<const HistoryPoint*> runs;
  for (const HistoryPoint& p : own) {
    // Identical code: the same kernel source, measured by the driver this check runs on (a driver
    // update on the device starts its offset again).
    if (baseline.source_hash.empty() || p.source_hash != baseline.source_hash || p.driver != driver) continue;
    // Both ISO 8601 UTC, so they order as text: runs before the baseline's own belong to an
    // earlier baseline's level.
    if (!baseline.measured_at.empty() && p.started_at < baseline.measured_at) continue;
    runs.push_back(&p);
  }
  return runs;
}

std::optional<DeviceOffset> device_offset(const std::vector<const HistoryPoint*>& runs, const BaselineCase& baseline,
                                          const std::string& metric, const std::string& device) {
  const auto baseline_runs = baseline.runs.find(metric);
  if (baseline_runs == baseline.runs.end() || baseline_runs->second.empty()) return std::nullopt;
  std::vector<double> levels;
  for (const HistoryPoint* p : runs)
    if (auto m = p->medians.find(metric); m != p->medians.end() && std::isfinite(m->second)) levels.push_back(m->second);
  if (static_cast<int>(levels.size()) < kOffsetRuns) return std::nullopt;
  const double baseline_level = median(pooled(baseline_runs->second));
  if (!(baseline_level != 0)) return std::nullopt;
  std::vector<double> baseline_medians;
  for (const auto& run : baseline_runs->second)
    if (!run.empty()) baseline_medians.push_back(median(run));
  DeviceOffset o;
  o.runs = static_cast<int>(levels.size());
  const double level = median(levels);
  o.ratio = level / baseline_level;
  // Both levels are estimates: the device's from its runs, the baseline's from its own.
  const double device_error = relative_standard_error(levels, level),
               baseline_error = relative_standard_error(baseline_medians, baseline_level);
  const double degrees = static_cast<double>(levels.size() + baseline_medians.size()) - 2;
  const double t = degrees > 0 ? student_t_quantile(0.05, degrees) : 0;
  o.bound_pct = 100 * t * std::hypot(device_error, baseline_error);
  o.why = fmt::format("{}'s {} runs in the history at the baseline's kernel source sit {:+.2g}% from its runs "
                      "(offset known to ±{:.2g}%, 95%)",
                      device, o.runs, 100 * (o.ratio - 1), o.bound_pct);
  return o;
}

bool periods_unmeasured(const BaselineCase& baseline, int host_runs_in_history) {
  return baseline.periods <= 1 && host_runs_in_history < kHistoryNoiseRuns;
}

}  // namespace perfgate
