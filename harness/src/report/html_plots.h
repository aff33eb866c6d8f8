#pragma once
// The plot sections of the HTML report, each an <h2> and its figures (empty when the run has
// nothing to plot): what html_printer.cpp puts between the tables.
#include <map>
#include <string>
#include <vector>

#include "judge/history_analysis.h"
#include "perfgate/result.h"
#include "store/history.h"

namespace perfgate::html {

// Cases with flops at their arithmetic intensity, under the run's measured ceilings: the cases'
// DRAM and cache bandwidth and GFLOP/s (the fma_peak case's for results without them).
std::string roofline_section(const RunResult& run);
// Per case with latency samples: the baseline's samples (when given and it has the case) and
// the run's.
// `baseline_from` says where the baseline's samples come from (HTML; default: its run id).
std::string distribution_section(const RunResult& run, const RunResult* baseline,
                                 const std::string& baseline_from = "");
// Cases of one kernel and backend that differ in one parameter axis: latency against that
// axis, one line per setting of the other axes (e.g. matmul by wg, one line per tile).
std::string sweep_section(const RunResult& run);
// Per case of the run with history: its median latency run after run; where the history was
// judged (`changes`), the judged metric instead, with each segment's median drawn as a step line
// and each change point as a dot of its own.
std::string history_section(const RunResult& run,
                            const std::map<std::string, std::vector<HistoryPoint>>& history,
                            const std::vector<CaseHistory>& changes = {});

// A history's x-axis labels, distinct: "11-28 15:40", with the seconds where two runs share a
// minute ("11-28 15:40:07"; once "11-28 15:40" twice), and "#2" where they share a second too.
std::vector<std::string> history_labels(const std::vector<std::string>& started_at);

// A sweep found in a run: the axis that varies and one series per setting of the others.
struct SweepLine {
  std::string others;                                              // "tile=16" ("" when no other axis)
  std::vector<std::pair<std::int64_t, const CaseResult*>> points;  // by axis value
};
struct Sweep {
  std::string kernel, backend, axis;
  std::vector<SweepLine> lines;
};
std::vector<Sweep> find_sweeps(const RunResult& run);

}  // namespace perfgate::html
