#pragma once
// The profile view of a multi-dispatch case (e.g. the attention layer): where the time goes per
// stage, which stage is the bottleneck and why, and what the host adds around the GPU's work.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct Breakdown {
  std::string case_id;
  std::vector<StageTiming> stages;  // in plan order, pct_of_total filled in
  double stages_ns = 0;             // sum of the stages' medians
  std::size_t bottleneck = 0;       // index of the stage with the most time
  std::string bottleneck_reason;    // "scores: 38% of time, memory-bound at 62% of peak bandwidth"
  // GPU time not inside any stage: barriers and gaps between dispatches (latency - stages).
  std::optional<double> gaps_ns;
  // Host wall time minus GPU time, per dispatch of the plan (needs host_latency_ns).
  std::optional<double> launch_overhead_ns;
  // latency_ns / host_latency_ns: the share of the host's wall time the GPU was busy.
  std::optional<double> gpu_busy_fraction;
};

// Null when the case has no stages. Each stage's bound is the one judged when the case ran
// (StageTiming::bound); where it is unknown the reason falls back to the whole case's bound. The
// breakdown depends on the result alone, so another machine's results print the same.
std::optional<Breakdown> breakdown_of(const CaseResult& result);

// The run's measured compute ceiling: the best median GFLOP/s of its fma_peak cases, 0 if none.
double peak_gflops_of(const RunResult& run);

// Plain text for a terminal: one line per stage, then the bottleneck and the host overhead.
std::string render_breakdown(const Breakdown& breakdown);

// The breakdown of every case with stages, one text block each; empty when no case has stages.
// What `perfgate run` prints under its table.
std::string render_breakdowns(const RunResult& run);

// The breakdown_of every case with stages, as the printers show them.
std::vector<Breakdown> breakdowns_of(const RunResult& run);

// "62% of peak bandwidth", "1.2 µs launch overhead, GPU busy 81%": the summary lines shared by
// the text, Markdown and HTML views.
std::string describe_host_overhead(const Breakdown& breakdown);

}  // namespace perfgate
