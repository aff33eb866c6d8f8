#pragma once
// Judges one measured case against its approved baseline under its thresholds: one judgement per
// thresholded metric, combined into the case's verdict and message.
#include <optional>

#include "judge/baseline_case.h"
#include "judge/thresholds.h"
#include "perfgate/result.h"

namespace perfgate {

// Judges `result` against baseline runs: one judgement per thresholded metric. Without a
// baseline only floors can be judged. Sets result.verdict, judgements and message.
void judge_against(CaseResult& result, const std::optional<BaselineCase>& baseline,
                   const Thresholds& thresholds, const Fingerprint& current);

}  // namespace perfgate
