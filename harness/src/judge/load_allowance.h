#pragma once
// The allowance of a calibrated case on a shared machine follows how busy the machine was during
// this very check. The baseline's runs say how far quiet runs land apart (verdict.h: noise,
// floor); a busy period moves a case's time relative to its reference far more (on the 2-core
// CI-class machine, A/A checks beside parallel builds moved it by up to 62%), and the same check
// sees that period in its own rounds: the case's and the reference's times scatter
// (stats/check_spread.h). So where a metric has a load_factor the allowance is at least
//
//   load_factor x this check's spread, at most load_max_pct
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
