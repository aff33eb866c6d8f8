#pragma once
// Summary statistics of a metric's samples: pure functions, no state. An empty input gives
// zeros (count 0) rather than NaN, so summaries always serialise.
#include <span>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

Summary summarize(std::span<const double> samples);

double median(std::span<const double> samples);

// The samples in ascending order.
std::vector<double> sorted_copy(std::span<const double> samples);

// p in [0, 100]; linear interpolation between closest ranks (numpy's default "linear" method):
// rank h = (n - 1) p / 100, value x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
double percentile(std::span<const double> samples, double p);

}  // namespace perfgate
