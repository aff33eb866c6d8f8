#pragma once
// A proposal's runs that disagree far beyond a quiet machine's noise: they were measured while
// something else took the machine, and a baseline made of them would judge the case with an
// allowance no quiet machine needs (a multimodal proposal beside a parallel build allowed
// 346-514%, and a 2x slowdown passed). `baseline propose` measures more runs, then refuses.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/thresholds.h"
#include "perfgate/result.h"

namespace perfgate {

// Why the runs of one case (metric -> runs -> samples) look busy, or nullopt: the allowance
// their noise gives the metric the case is judged on (judge/verdict.h, latency_noise) exceeds
// both `thresholds.propose_max_allowed_pct` and what the metric's thresholds allow anyway (a
// fixed allowance already that wide loses nothing to noisy runs).
std::optional<std::string> busy_runs(const std::map<std::string, std::vector<std::vector<double>>>& runs,
                                     const Thresholds& thresholds);

// Why a case measured in one run is busy although its runs may agree, or nullopt: it is judged on
// raw time (not calibrated) and its threads waited for a core more than kBusyCpuWaitShare of the
// measurement (core/cpu_wait.h). A steady neighbour slows every sample alike: beside a parallel
// build triad n=2^20's OpenMP team took 8 ms a dispatch against 0.4 ms quiet, 5 runs agreed to
// 0.03%, and the baseline made of them let a 2x slowdown pass as a 19x improvement.
std::optional<std::string> waited_for_cores(const CaseResult& result);

}  // namespace perfgate
