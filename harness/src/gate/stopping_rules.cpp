#include "gate/stopping_rules.h"

namespace perfgate {

SettledCriterion::SettledCriterion(const Thresholds& thresholds, double allowed_pct)
    : allowed_pct_(allowed_pct),
      significance_(thresholds.significance),
      min_rounds_(thresholds.ab_min_rounds),
      max_rounds_(thresholds.ab_max_rounds),
      min_time_s_(thresholds.ab_min_time_s),
      timeout_s_(thresholds.sampling.timeout_s) {}

bool SettledCriterion::is_finished(int rounds, std::span<const double> ratios, double spent_s) const {
  if (rounds >= max_rounds_ || (rounds > 0 && spent_s >= timeout_s_)) return true;
  if (static_cast<int>(ratios.size()) < min_rounds_ || spent_s < min_time_s_) return false;
  return paired_settled(judge_paired(ratios, allowed_pct_, significance_), allowed_pct_);
}

}  // namespace perfgate
