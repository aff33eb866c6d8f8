#pragma once
// The profile view of a multi-dispatch case (e.g. the attention layer): where the time goes per
// stage, which stage is the bottleneck and why, and what the host adds around the GPU's work.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct StageLoad {
  std::string name;
  double latency_ns = 0;
  double pct_of_total = 0;
  std::string bound;       // "memory" | "compute" | "latency" | "" when the stage's cost is not known
  double pct_of_peak = 0;  // of peak bandwidth (memory) or peak GFLOP/s (compute); 0 unknown
  std::string reason;      // "memory-bound at 62% of peak DRAM bandwidth", "latency-bound: at ..."
};

struct Breakdown {
  std::string case_id;
  std::vector<StageLoad> stages;  // in plan order
  double stages_ns = 0;           // sum of the stages' medians
  std::size_t bottleneck = 0;     // index of the stage with the most time
  std::string bottleneck_reason;  // "scores: 38% of time, memory-bound at 62% of peak bandwidth"
  // GPU time not inside any stage: barriers and gaps between dispatches (latency - stages).
  std::optional<double> gaps_ns;
  // Host wall time minus GPU time, per dispatch of the plan (needs host_latency_ns).
  std::optional<double> launch_overhead_ns;
  // latency_ns / host_latency_ns: the share of the host's wall time the GPU was busy.
  std::optional<double> gpu_busy_fraction;
};

// Bytes and flops of each stage by stage name, when the kernel knows them; without them a
// stage's bound is unknown and the reason falls back to the whole case's bound.
using StageCosts = std::map<std::string, Cost>;

// Per-stage costs from the kernel registry, by the suite's convention that a pipeline kernel
// `<family>_<anything>` has its stage `<stage>` registered as kernel `<family>_<stage>` over the
// same parameters (attention_layer's "scores" is attention_scores). Stages without such a
// kernel, or whose kernel does not take these parameters, are left out.
StageCosts stage_costs_from_registry(const CaseResult& result);

// Null when the case has no stages. The ceilings are the case's own (CaseResult::peaks);
// `peak_gflops` (0 = unknown), e.g. the run's fma_peak GFLOP/s, stands in for a compute ceiling
// the case does not carry (results written before it did).
std::optional<Breakdown> breakdown_of(const CaseResult& result, const StageCosts& stage_costs = {},
                                      double peak_gflops = 0);

// The run's measured compute ceiling: the best median GFLOP/s of its fma_peak cases, 0 if none.
double peak_gflops_of(const RunResult& run);

// Plain text for a terminal: one line per stage, then the bottleneck and the host overhead.
std::string render_breakdown(const Breakdown& breakdown);

// The breakdown of every case with stages (stage costs from the registry, compute ceiling from
// the run's fma_peak case), one text block each; empty when no case has stages. What
// `perfgate run` prints under its table.
std::string render_breakdowns(const RunResult& run);

// The breakdown_of every case with stages, as the printers show them.
std::vector<Breakdown> breakdowns_of(const RunResult& run);

// "62% of peak bandwidth", "1.2 µs launch overhead, GPU busy 81%": the summary lines shared by
// the text, Markdown and HTML views.
std::string describe_host_overhead(const Breakdown& breakdown);

}  // namespace perfgate
