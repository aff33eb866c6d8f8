#pragma once
// The allowance of a calibrated case on a shared machine follows how busy the machine was during
// this very check. The baseline's runs say how far quiet runs land apart (verdict.h: noise,
// floor); a busy period moves a case's time relative to its reference far more (on the 2-core
// CI-class machine, A/A checks beside parallel builds moved it by up to 62%), and the same check
// sees that period in its own rounds: the case's and the reference's times scatter
// (stats/check_spread.h). So where a metric has a load_factor the allowance is at least
//
//   load_factor x this check's spread, at most load_max_pct,
//
// where that spread is over twice its baseline's runs' (CheckSpread::load_pct: rounds that jitter
// as the baseline's did show no load, whatever their spread; a case whose rounds jitter 6% on a
// quiet machine keeps its floor)
// and at least what waiting for cores could have stretched it by (CheckSpread::wait_stretch_pct):
// a steady load, such as a busy loop on one of two cores, slows every round alike, so the rounds
// agree while the case and its reference are slowed by different amounts (beside one on the
// 2-core VM, A/A checks of copy n=2^20 and f16_matvec read +21% and +35% with spreads that
// allowed 13% and 14%, their threads having waited 73% and 68% of the time).
//
// A raw-timed case (measured alone, no reference: cache_peak on the CPU) has no ratio to follow;
// its metrics take the same rule from its own times' spread and its threads' waiting where they
// have a load_factor. Its fixed allowance is then its cap: a check beside a parallel build read
// it 15x slower (cache_peak/cpu, 2-core CI-class machine), which is too busy to judge, not a
// regression (docs/performance.md, "A raw-timed case beside a parallel build").
//
// with source "load" when that is what sets it: a check on a quiet machine keeps its floor, a
// check on a busy one says it saw less (its resolution, report/ and the run line, is the wider
// figure). docs/performance.md, "An allowance that follows the load", holds the study behind
// the shipped factor, floor and cap.
#include "judge/thresholds.h"
#include "judge/verdict.h"
#include "stats/check_spread.h"

namespace perfgate {

// `allowance` widened to what `spread` calls for under `threshold` (load_factor, load_max_pct);
// unchanged when the metric has no load_factor or the check measured no rounds.
Allowance follow_load(Allowance allowance, const CheckSpread& spread, const MetricThreshold& threshold);

}  // namespace perfgate
