#include "judge/step_allowance.h"

#include <fmt/format.h>

namespace perfgate {

StepAllowance step_allowance(std::optional<double> given_allowed_pct, std::optional<int> given_pairs,
                             std::optional<double> change_point_pct, double ab_allowed_pct) {
  StepAllowance a{given_allowed_pct, given_pairs.value_or(1), ""};
  if (given_allowed_pct || !change_point_pct || *change_point_pct <= 0) return a;
  const double midpoint = *change_point_pct / 2;
  if (midpoint >= ab_allowed_pct) return a;
  a.allowed_pct = midpoint;
  a.why = fmt::format("--allowed {:.3g}% (half the change point's {:+.3g}%, finer than ab_max_regression_pct {:g}%)",
                      midpoint, *change_point_pct, ab_allowed_pct);
  if (!given_pairs) {
    a.pairs = kFineStepPairs;
    a.why += fmt::format(" and --pairs {} (pairs of processes differ by biases of their own of that order)",
                         kFineStepPairs);
  }
  return a;
}

}  // namespace perfgate
