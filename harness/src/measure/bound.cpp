#include "measure/bound.h"

#include <fmt/format.h>

#include <algorithm>

namespace perfgate {
namespace {
std::string percent(double pct) { return pct < 10 ? fmt::format("{:.1f}%", pct) : fmt::format("{:.0f}%", pct); }
}  // namespace

double compute_ceiling_gflops(const Peaks& peaks, const Cost& cost) {
  return cost.matrix_flops && peaks.tensor_gflops > 0 ? peaks.tensor_gflops : peaks.gflops;
}

double bandwidth_ceiling_gbps(const Peaks& peaks, bool in_cache) {
  return in_cache && peaks.cache_bandwidth_gbps > 0 ? peaks.cache_bandwidth_gbps : peaks.bandwidth_gbps;
}

BoundCall classify_bound(const Cost& cost, double latency_ns, bool in_cache, const Peaks& peaks) {
  BoundCall call;
  const double bytes = cost.bytes();
  if (bytes == 0 && cost.flops == 0) return call;
  call.bandwidth_gbps = bandwidth_ceiling_gbps(peaks, in_cache);
  const double gflops_ceiling = compute_ceiling_gflops(peaks, cost);
  const std::string unit = cost.matrix_flops && peaks.tensor_gflops > 0 ? "tensor GFLOP/s" : "GFLOP/s";
  const std::string level = in_cache && peaks.cache_bandwidth_gbps > 0 ? "cache" : "DRAM";
  const double intensity = bytes > 0 ? cost.flops / bytes : 1e300;
  if (call.bandwidth_gbps > 0 && gflops_ceiling > 0)
    call.bound = intensity < gflops_ceiling / call.bandwidth_gbps ? "memory" : "compute";
  else
    call.bound = cost.flops == 0 || intensity < 1 ? "memory" : "compute";

  // bytes per ns = GB/s and flops per ns = GFLOP/s.
  const double pct_bw = latency_ns > 0 && call.bandwidth_gbps > 0 ? 100.0 * bytes / latency_ns / call.bandwidth_gbps : 0;
  const double pct_flops = latency_ns > 0 && gflops_ceiling > 0 ? 100.0 * cost.flops / latency_ns / gflops_ceiling : 0;
  const bool bw_known = latency_ns > 0 && call.bandwidth_gbps > 0;
  const bool flops_known = latency_ns > 0 && gflops_ceiling > 0;
  const std::string bw_text = percent(pct_bw) + " of peak " + level + " bandwidth";
  const std::string flops_text = percent(pct_flops) + " of peak " + unit;
  if (bw_known && (flops_known || cost.flops == 0) && std::max(pct_bw, pct_flops) < kLatencyBoundPct) {
    call.bound = "latency";
    call.pct_of_peak = std::max(pct_bw, pct_flops);
    call.reason = fmt::format(
        "latency-bound: at {}{}, too little work in flight to approach either ceiling (launch, "
        "barriers, a partial last wave or serial steps)",
        bw_text, cost.flops > 0 ? " and " + flops_text : "");
    return call;
  }
  call.pct_of_peak = call.bound == "memory" ? pct_bw : pct_flops;
  call.reason = call.bound + "-bound";
  if (call.bound == "memory" && bw_known) call.reason += " at " + bw_text;
  if (call.bound == "compute" && flops_known) call.reason += " at " + flops_text;
  return call;
}

}  // namespace perfgate
