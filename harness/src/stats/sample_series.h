#pragma once
// One series of samples in time order: how precisely its median is known, whether its level
// shifted while it was taken, and several series pooled into one. Pure functions.
#include <span>
#include <vector>

namespace perfgate {

// Half-width of the distribution-free 95% confidence interval of the median, relative to it, %.
// Fewer than 5 samples: infinity.
double median_relative_precision(std::vector<double> samples);

// Whether the latest third of `samples` (in time order) has a median more than `pct` percent
// away from the first third's: the device changed state while being measured.
bool level_shift(std::span<const double> samples, double pct);

// Several series of one quantity (the allocations of one measurement, or the measurements of
// one case), pooled by relative position, never concatenated: a sample taken at fraction f of
// its series lands at fraction f of the pool. Any third of the pool then holds each series in
// proportion, so the drift tests (stats/run_noise.h) see a drift inside every series but not a
// step from one series to the next (a new buffer placement, a new process).
std::vector<double> pool_by_position(const std::vector<std::span<const double>>& series);

}  // namespace perfgate
