#include "measure/cache_sweep.h"

#include <algorithm>
#include <cmath>

namespace perfgate {

CacheEstimate estimate_cache(std::vector<SweepPoint> sweep, double dram_gbps) {
  std::sort(sweep.begin(), sweep.end(), [](const SweepPoint& a, const SweepPoint& b) {
    return a.working_set_bytes < b.working_set_bytes;
  });
  const auto best = std::max_element(
      sweep.begin(), sweep.end(),
      [](const SweepPoint& a, const SweepPoint& b) { return a.bandwidth_gbps < b.bandwidth_gbps; });
  const double level = kInCacheOverDram * dram_gbps;
  if (best == sweep.end() || !(dram_gbps > 0)) return {};
  // Past the fastest point: below it a small working set may be launch-bound (an OpenMP fork on
  // many cores), which is no disturbance.
  for (auto p = best; p != sweep.end(); ++p)
    if (p->bandwidth_gbps < kDisturbedBelowDram * dram_gbps) return {.disturbed = true};
  if (best->bandwidth_gbps < level) return {};
  auto last_in = best;
  while (last_in + 1 != sweep.end() && (last_in + 1)->bandwidth_gbps >= level) ++last_in;
  CacheEstimate estimate{last_in->working_set_bytes, best->bandwidth_gbps};
  if (last_in + 1 == sweep.end()) return estimate;  // still in cache at the largest point
  // Between the last point in the cache and the first past it, bandwidth crosses the in-cache
  // level: log(size) interpolated linearly in bandwidth.
  const SweepPoint& in = *last_in;
  const SweepPoint& out = *(last_in + 1);
  const double t = (in.bandwidth_gbps - level) / (in.bandwidth_gbps - out.bandwidth_gbps);
  estimate.cache_bytes = std::exp(std::log(in.working_set_bytes) +
                                  t * (std::log(out.working_set_bytes) - std::log(in.working_set_bytes)));
  return estimate;
}

bool sweep_past_knee(const std::vector<SweepPoint>& sweep, double dram_gbps) {
  const double level = kInCacheOverDram * dram_gbps;
  if (sweep.size() < 2 || !(dram_gbps > 0) || !(sweep.back().bandwidth_gbps < level)) return false;
  return std::any_of(sweep.begin(), sweep.end() - 1,
                     [level](const SweepPoint& p) { return p.bandwidth_gbps >= level; });
}

}  // namespace perfgate
