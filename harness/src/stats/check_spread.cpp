#include "stats/check_spread.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stats/summary.h"

namespace perfgate {

double CheckSpread::pct() const { return std::max({case_pct, reference_pct, relative_pct}); }

double CheckSpread::load_pct() const { return pct() > kLoadedSpread * baseline_pct ? pct() : 0; }

double CheckSpread::wait_stretch_pct() const {
  if (!(cpu_wait_share > baseline_wait_share)) return 0;
  if (cpu_wait_share >= 1) return std::numeric_limits<double>::infinity();
  return 100 * (cpu_wait_share - baseline_wait_share) / (1 - cpu_wait_share);
}

double robust_spread_pct(std::span<const double> samples) {
  if (samples.size() < 2) return 0;
  const double centre = median(samples);
  if (!(centre > 0)) return 0;
  std::vector<double> deviations;
  deviations.reserve(samples.size());
  for (double x : samples) deviations.push_back(std::abs(x - centre));
  return 100 * 1.4826 * median(deviations) / centre;
}

CheckSpread check_spread(std::span<const double> case_ns, std::span<const double> reference_ns,
                         std::span<const double> relative) {
  CheckSpread s;
  s.rounds = static_cast<int>(std::min({case_ns.size(), reference_ns.size(), relative.size()}));
  if (s.rounds == 0) return s;
  s.case_pct = robust_spread_pct(case_ns);
  s.reference_pct = robust_spread_pct(reference_ns);
  s.relative_pct = robust_spread_pct(relative);
  return s;
}

CheckSpread check_spread_alone(std::span<const double> case_ns) {
  CheckSpread s;
  s.raw = true;
  s.rounds = static_cast<int>(case_ns.size());
  s.case_pct = robust_spread_pct(case_ns);
  return s;
}

}  // namespace perfgate
