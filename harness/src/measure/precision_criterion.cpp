#include "measure/precision_criterion.h"

#include <vector>

#include "stats/sample_series.h"

namespace perfgate {

bool PrecisionCriterion::is_finished(int samples, std::span<const double> series, double sampling_s,
                                     double elapsed_s) {
  converged_ = false;
  if (samples >= settings_.max_samples || elapsed_s >= settings_.timeout_s) return true;
  if (samples < settings_.min_samples || sampling_s < settings_.min_time_s) return false;
  converged_ = median_relative_precision({series.begin(), series.end()}) <= settings_.target_precision_pct;
  return converged_;
}

}  // namespace perfgate
