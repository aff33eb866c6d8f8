#pragma once
// An A/B check's two builds side by side, for the terminal (`check` output and the run
// table's details): latency, version, kernel source and binary of base and head. The paired
// judgement is the case's judgement line, printed like any other (report/check_lines.h).
#include <string>

#include "perfgate/result.h"

namespace perfgate {

// "" when the case was not judged A/B.
std::string render_ab_sides(const CaseResult& result);

// "1.012 [0.994, 1.031]" (an unbounded end as "inf").
std::string format_ab_ratio(const AbComparison& ab);

}  // namespace perfgate
