#pragma once
// The confirmation rule: a regression found by a case's first measurement stands only when every
// fresh measurement made to confirm it (new buffers, a new warm-up, after a pause) regressed too,
// or moved past the allowance the first had (a noisier process whose own allowance is wider, which
// moved as far, is no evidence against the first). One unlucky state of the device cannot fail a
// tight gate; a real slowdown is there each time.
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

// Whether `result` (judged) needs confirming: it regressed against a baseline, not only below
// an absolute floor (a floor needs no second opinion).
bool needs_confirmation(const CaseResult& result);

// Whether `fresh` bears out the regression of `first` (both judged): it regressed too, or its
// change of the metric the first was judged on is past the allowance the first had.
bool bears_out(const CaseResult& first, const CaseResult& fresh);

// Whether `fresh` was too busy to judge: inconclusive because its own rounds spread past the
// load cap (Judgement::too_busy). Such a measurement is no evidence either way.
bool too_busy_to_judge(const CaseResult& fresh);

// How many more fresh measurements a gate makes where one was too busy to judge, before the
// regression stands unconfirmed: beside a parallel build the machine's load comes and goes with
// the build's steps, and an A/A check whose one fresh process was too busy failed so.
constexpr int kBusyRemeasures = 2;

// "1 fresh process", "2 fresh processes", "2 fresh process pairs": `n` of `what`.
std::string counted(std::size_t n, const std::string& what);

// Applies the rule to `result` with the judged fresh measurements (the gate stops at the first
// that does not bear it out): records them and its first verdict, and sets the final verdict and
// message, which call each one a `what` ("fresh process", "fresh measurement"). An error or
// skip among them, or one too busy to judge (Judgement::too_busy), leaves the regression
// unconfirmed but standing.
void apply_confirmations(CaseResult& result, const std::vector<CaseResult>& fresh,
                         const std::string& what = "fresh measurement");

}  // namespace perfgate
