#pragma once
// Which ceiling bounds a kernel: the roofline's memory or compute roof, or neither. A kernel far
// below every ceiling is not "compute-bound at 3% of peak": too little work is in flight
// (launch, barriers, a partial last wave, serial dependencies), and the report says so.
#include <string>

#include "perfgate/kernel.h"
#include "perfgate/result.h"

namespace perfgate {

// Below this share of every known ceiling a kernel is called latency-bound: the ridge point
// names the roof it would hit with enough work, not what limits it now.
inline constexpr double kLatencyBoundPct = 10;

struct BoundCall {
  std::string bound;         // "memory" | "compute" | "latency" | "" (no cost known)
  std::string reason;        // "memory-bound at 62% of peak cache bandwidth", ...
  double pct_of_peak = 0;    // of the ceiling named by `bound` (latency: the nearer one); 0 unknown
  double bandwidth_gbps = 0; // the bandwidth ceiling that applies: cache or DRAM; 0 unknown
};

// The bandwidth ceiling of a working set: the cache's when it fits in the last-level cache (and
// that ceiling is known), else DRAM's.
double bandwidth_ceiling_gbps(const Peaks& peaks, bool in_cache);

// The compute ceiling of a cost: the tensor peak for matrix-unit flops where it is known, else
// fma_peak's.
double compute_ceiling_gflops(const Peaks& peaks, const Cost& cost);

// `latency_ns` 0 = not measured: the ridge point alone decides. Without a compute ceiling, less
// than one flop per byte counts as memory.
BoundCall classify_bound(const Cost& cost, double latency_ns, bool in_cache, const Peaks& peaks);

}  // namespace perfgate
