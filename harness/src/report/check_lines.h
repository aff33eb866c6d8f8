#pragma once
// What `perfgate check` prints for each case, whether it was judged against a stored baseline or
// A/B: the verdict line, the message, the correctness check, one line per judged metric, and for
// an A/B check its two builds side by side (report/ab_lines.h).
#include <string>

#include "perfgate/result.h"

namespace perfgate {

std::string render_check_lines(const CaseResult& result);

}  // namespace perfgate
