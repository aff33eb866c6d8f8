#pragma once
// What a bisect judges each step under, where the user did not say (`--allowed`, `--pairs`). A
// change point says how large the step sought is; where half of it (the midpoint between the
// change point's two levels) is finer than the A/B allowance (ab_max_regression_pct), the 5%
// default would read a GPU's sub-percent step as "no commit is slower". There the allowance is
// that midpoint, and since two processes alive at once carry biases of their own of that order
// (0.2% deviation between A/A pairs of an H200's DRAM copy), each step is measured by
// kFineStepPairs fresh pairs (judge/pair_spread.h): ten, pooled to twenty where a step stayed
// inconclusive, placed a +0.4% step among 16 commits 3 of 3 on an H200 (docs/performance.md,
// "Bisecting a +1% work copy on an H200 with ten pairs a step").
#include <optional>
#include <string>

namespace perfgate {

inline constexpr int kFineStepPairs = 10;

struct StepAllowance {
  std::optional<double> allowed_pct;  // nullopt: each case's ab_max_regression_pct
  int pairs = 1;
  std::string why;  // what was chosen and why, where it was not what the user gave; "" otherwise
};

// `given_*`: the user's flags; `change_point_pct`: the change point's step (nullopt without one);
// `ab_allowed_pct`: the thresholds' ab_max_regression_pct for the case on this machine.
StepAllowance step_allowance(std::optional<double> given_allowed_pct, std::optional<int> given_pairs,
                             std::optional<double> change_point_pct, double ab_allowed_pct);

}  // namespace perfgate
