#pragma once
// When the gate stops measuring a case more: one named object per way of measuring, each with
// its settings and `is_finished` over what was taken (nvbench's stdrel criterion is the model).
// The sampler's own rule, inside one measurement, is measure/precision_criterion.h.
#include <span>
#include <string_view>

#include "judge/paired_verdict.h"
#include "judge/thresholds.h"
#include "perfgate/result.h"

namespace perfgate {

// Against a stored baseline: an inconclusive judgement (past the allowance, not significant) is
// measured again, the samples pooled, at most `remeasure` times; any other verdict stands, and so
// does one only named (a significant change past the allowance of a baseline measured elsewhere
// or in one period, judge/verdict.h only_named): more samples cannot decide it.
class InconclusiveCriterion {
 public:
  static constexpr std::string_view name = "remeasure-inconclusive";

  explicit InconclusiveCriterion(int remeasure) : remeasure_(remeasure) {}

  // `measurements` taken so far (at least the first), and the verdict on all of them pooled.
  bool is_finished(int measurements, Verdict verdict, bool only_named = false) const {
    return verdict != Verdict::inconclusive || only_named || measurements > remeasure_;
  }

 private:
  int remeasure_;
};

// A/B: rounds go on until the paired judgement under the case's allowance settles (judge/paired_verdict.h, paired_settled), but never settle before ab_min_rounds ratios spanning ab_min_time_s (a burst
// of other work cannot fill them all); at ab_max_rounds rounds or sampling.timeout_s they stop
// whatever the judgement.
class SettledCriterion {
 public:
  static constexpr std::string_view name = "paired-settled";

  SettledCriterion(const Thresholds& thresholds, double allowed_pct);

  // `rounds` taken, `ratios` they gave (a round with no base time gives none), `spent_s` since
  // the first round began.
  bool is_finished(int rounds, std::span<const double> ratios, double spent_s) const;

 private:
  double allowed_pct_, significance_;
  int min_rounds_, max_rounds_;
  double min_time_s_, timeout_s_;
};

}  // namespace perfgate
