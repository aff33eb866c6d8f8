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
// Calibrated measurement only (sampling.calibrate): the reference workload's time per dispatch
// measured right before each case batch, and the case's time divided by it (dimensionless).
inline constexpr const char* reference_latency_ns = "reference_latency_ns";
inline constexpr const char* relative_latency = "relative_latency";
// Recorded where the driver tells them (NVML), never judged: the GPU's clocks after each sample.
inline constexpr const char* sm_clock_mhz = "sm_clock_mhz";
inline constexpr const char* memory_clock_mhz = "memory_clock_mhz";

}  // namespace perfgate::metric
