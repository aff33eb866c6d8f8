#pragma once
// Significance of a difference between two sets of samples: a rank test and a bootstrap
// interval of the median ratio. Pure functions; the bootstrap is deterministic for a seed.
#include <cstdint>
#include <span>

namespace perfgate {

// Two-sided Mann-Whitney U test (Wilcoxon rank-sum). Uses the normal approximation with tie
// correction and continuity correction (scipy.stats.mannwhitneyu, method="asymptotic"); exact
// enumeration is not implemented, so with fewer than ~8 samples a side the p-value is only
// approximate. Returns 1 when either side is empty or every value is tied.
double mann_whitney_p(std::span<const double> a, std::span<const double> b);

struct Interval {
  double low = 0, high = 0;
};

// Percentile bootstrap confidence interval of median(current) / median(baseline): each side is
// resampled with replacement on its own, `resamples` times. `confidence` in (0, 1), e.g. 0.99.
// The same inputs and seed always give the same interval (the generator is mt19937_64 and the
// index mapping is ours, not the standard library's implementation-defined distributions).
// Empty inputs or a zero baseline median give {NaN, NaN}.
Interval bootstrap_median_ratio(std::span<const double> current, std::span<const double> baseline,
                                double confidence, std::uint64_t seed, int resamples = 2000);

}  // namespace perfgate
