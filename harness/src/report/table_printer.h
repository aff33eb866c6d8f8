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

std::string format_duration_ns(double ns);     // "812 ns", "3.41 µs", "12.6 ms"
std::string format_bandwidth(double gbps);     // "97.3 GB/s", "2.95 TB/s"
std::string format_flops(double gflops);       // "812 GFLOP/s", "61.2 TFLOP/s"

// The whole table, a blank line, then a summary line of counts per verdict.
std::string render_table(const RunResult& run, const TableStyle& style);
// One line per case that is not a pass: its verdict and reason (judgement, error, skip).
std::string render_details(const RunResult& run, const TableStyle& style);

}  // namespace perfgate
