#pragma once
// The names of the metrics perfgate measures: keys of CaseResult::metrics, of baseline runs and of
// thresholds files. User-visible (results JSON, baselines, thresholds), so fixed.
namespace perfgate::metric {

inline constexpr const char* latency_ns = "latency_ns";            // device time per dispatch
inline constexpr const char* host_latency_ns = "host_latency_ns";  // host wall time per dispatch
inline constexpr const char* cold_latency_ns = "cold_latency_ns";  // one dispatch, caches flushed
inline constexpr const char* bandwidth_gbps = "bandwidth_gbps";    // bytes moved / latency
inline constexpr const char* gflops = "gflops";                    // floating-point work / latency
inline constexpr const char* pct_peak_bw = "pct_peak_bw";          // bandwidth, % of the copy peak

}  // namespace perfgate::metric
