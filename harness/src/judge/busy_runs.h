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

namespace perfgate {

// Why the runs of one case (metric -> runs -> samples) look busy, or nullopt: the allowance
// their noise gives the metric the case is judged on (judge/verdict.h, latency_noise) exceeds
// both `thresholds.propose_max_allowed_pct` and what the metric's thresholds allow anyway (a
// fixed allowance already that wide loses nothing to noisy runs).
std::optional<std::string> busy_runs(const std::map<std::string, std::vector<std::vector<double>>>& runs,
                                     const Thresholds& thresholds);

}  // namespace perfgate
