#pragma once
// One number for a whole run: the geometric mean of its judged cases' latency ratios (current /
// baseline of the metric that judged each case), with a t-interval on the log ratios. A case
// twice as slow and one twice as fast cancel, which an arithmetic mean of percentages does not.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct GeometricMean {
  int count = 0;     // ratios it is over
  double ratio = 1;  // exp(mean(log ratio)): > 1 slower
  // exp(mean +- t(confidence, count - 1) * sd / sqrt(count)); one ratio gives no interval: {0, inf}
  double low = 0, high = 0;
  double confidence = 0.95;
};

// Of positive ratios; nullopt when there are none. `confidence` in (0, 1).
std::optional<GeometricMean> geometric_mean(std::span<const double> ratios, double confidence = 0.95);

// The latency ratio of each judged case of a run (pass, improved, regressed, inconclusive): its
// main judgement's current / baseline median, on relative_latency where the case was calibrated
// and latency_ns otherwise (an A/B check's head / base).
std::vector<double> judged_latency_ratios(const RunResult& run);

// The geometric mean of judged_latency_ratios(run) at 95%; nullopt when no case was judged.
std::optional<GeometricMean> run_geometric_mean(const RunResult& run);

// "geomean latency x1.013 (+1.3%), 95% interval x0.998..x1.028, over 12 judged cases"
std::string geometric_mean_text(const GeometricMean& mean);

}  // namespace perfgate
