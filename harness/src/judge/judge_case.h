#pragma once
// Judges one measured case against its approved baseline under its thresholds: one judgement per
// thresholded metric, combined into the case's verdict and message.
#include <optional>

#include "judge/history_noise.h"
#include "judge/thresholds.h"
#include "perfgate/result.h"
#include "store/baseline_case.h"

namespace perfgate {

// Judges `result` against baseline runs: one judgement per thresholded metric. Without a
// baseline only floors can be judged. Sets result.verdict, judgements and message. `history`:
// the spread the case's gated runs have shown on this machine, where the history holds enough of
// them; it stands in for a class's floor on the case's time and the rates of it (MetricThreshold,
// history_allowed_pct), and the baseline's own runs may still widen it.
void judge_against(CaseResult& result, const std::optional<BaselineCase>& baseline,
                   const Thresholds& thresholds, const Fingerprint& current,
                   const HistoryNoise* history = nullptr);

// The least allowance judge_against can give the case of `baseline` under `thresholds`, known
// before the case is measured: the smallest over its relatively judged metrics that have runs,
// under either working-set floor (the measurement says which applies) and the floor of the bound
// its baseline recorded (another device and a drifting run only widen it). 0 when a judged metric
// has an absolute floor (its verdict is not a matter of allowance) or nothing is judged relatively.
double least_allowance_pct(const BaselineCase& baseline, const Thresholds& thresholds);

// The baseline a check on the device `device_uuid` is judged against. Where the baseline's runs
// span several devices of its host (BaselineCase::run_devices), the runs this device measured,
// under its uuid: each GPU of a host is judged at the resolution its own runs show. Where none
// of them did, or the runs name no devices, the baseline as it is (elsewhere() names the
// difference).
BaselineCase runs_of_device(const BaselineCase& baseline, const std::string& device_uuid);

}  // namespace perfgate
