#pragma once
// What `perfgate bisect` prints: one row per step (commit, what it was measured against, verdict,
// head/base ratio and interval, rounds, time), then the conclusion: `first bad commit: <sha>
// <subject>` with its measured change (every commit of a step split over several), or "no commit
// is slower", and the builds and time spent.
#include <string>

#include "judge/bisect_outcome.h"

namespace perfgate {

std::string render_bisect_steps(const BisectOutcome& outcome);
std::string render_bisect_conclusion(const BisectOutcome& outcome);
// One step as a progress line: "1a2b3c4d5e6f subject against 0f1e2d3c4b5a: slower 1.312 [1.290, 1.330] (build 4 s,
// measure 6 s)".
std::string render_bisect_step_line(const BisectOutcome& outcome, const BisectStep& step);

}  // namespace perfgate
