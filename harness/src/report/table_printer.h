#pragma once
// The run table on a terminal: case, latency, bandwidth, % of peak, bound, verdict. Aligned,
// with units; verdict colours only when printing to a terminal.
#include <cstdio>
#include <string>

#include "perfgate/result.h"

namespace perfgate {

struct TableStyle {
  bool color = false;
};

// The whole table, a blank line, then a summary line of counts per verdict.
std::string render_table(const RunResult& run, const TableStyle& style);
// One line per case that is not a pass: its verdict and reason (judgement, error, skip).
std::string render_details(const RunResult& run, const TableStyle& style);

}  // namespace perfgate
