#include "measure/peaks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/cpu_wait.h"
#include "core/sysinfo.h"
#include "measure/busy_peaks.h"
#include "measure/cache_sweep.h"
#include "measure/case_selection.h"
#include "perfgate/metric_names.h"
#include "perfgate/registry.h"

namespace perfgate {
namespace {

// Measured quickly: a ceiling is what the device reaches, and noise only ever lowers a sample,
// so the peak is the samples' 95th percentile, not their median: on a shared CI machine a median
// taken in a busy moment put every later case above 100% of "peak". At least 8 samples, so that
// each half of them is a repetition of its own (measure/busy_peaks.h).
SamplingSettings quick_settings() {
  SamplingSettings quick;
  quick.min_samples = 8;
  quick.min_time_s = 0.1;
  quick.timeout_s = 5;
  quick.target_precision_pct = 2;
  quick.cold_samples = 0;
  return quick;
}

// One point's figure (0 when the case failed) and what its measurement shows of the machine.
struct Reading {
  double value = 0;
  MeasurementEvidence evidence;
};

Reading measure_point(Device& device, const CaseSpec& spec, const char* metric_name,
                      const SamplingSettings& settings) {
  const CpuWaitMeter waiting;
  CaseResult r = measure_case(device, spec, settings, Peaks{}, 1);
  if (r.verdict == Verdict::error || r.verdict == Verdict::skipped) return {};
  const Metric& m = r.metrics[metric_name];
  return {m.summary.p95, {repetitions_of(m.samples), waiting.share()}};
}

// The kernel's cases on this device at its default points (or `axes`), smallest first; none
// when the registry lacks the kernel or it has no code for this backend.
std::vector<CaseSpec> cases_of(const Device& device, const char* kernel_name,
                               std::map<std::string, std::vector<std::int64_t>> axes = {}) {
  const KernelDef* kernel = find_kernel(kernel_name);
  if (!kernel || !kernel->has_backend(device.backend())) return {};
  Selection selection;
  selection.kernel_globs = {kernel_name};
  selection.backends = {device.backend()};
  selection.axes = std::move(axes);
  return select_cases(selection);
}

// The largest default point of a kernel that the device can hold and whose working set is at
// most `max_working_set_bytes` (0: any), measured quickly (quick_settings).
Reading measure_peak(Device& device, const char* kernel_name, const char* metric_name,
                     double max_working_set_bytes = 0,
                     std::map<std::string, std::vector<std::int64_t>> axes = {}) {
  auto cases = cases_of(device, kernel_name, std::move(axes));
  std::reverse(cases.begin(), cases.end());  // largest first
  for (const auto& spec : cases) {
    if (max_working_set_bytes > 0 && working_set_bytes(spec) > max_working_set_bytes) continue;
    if (const Reading peak = measure_point(device, spec, metric_name, quick_settings()); peak.value > 0)
      return peak;
  }
  return {};
}

// Copy's bandwidth over working sets from 256 KiB to 128 MiB, doubling, until it has fallen
// from the cache's plateau to DRAM's (measure/cache_sweep.h). Smaller working sets are per-core
// caches, or launch-bound on many cores; a point needs a short warm-up and sampling only, right
// after DRAM's copy has warmed the cores. 1.5 to 3.5 s on the 2-core CI machine (docs/performance.md).
std::vector<SweepPoint> copy_sweep(Device& device, double dram_gbps) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 1 << 15; n <= (1 << 24); n *= 2) sizes.push_back(n);
  SamplingSettings settings = quick_settings();
  settings.warmup_s = 0.02;
  settings.min_time_s = 0.05;
  std::vector<SweepPoint> sweep;
  for (const auto& spec : cases_of(device, "copy", {{"n", sizes}})) {
    if (const double gbps = measure_point(device, spec, metric::bandwidth_gbps, settings).value; gbps > 0)
      sweep.push_back({working_set_bytes(spec), gbps});
    if (sweep_past_knee(sweep, dram_gbps)) break;
  }
  return sweep;
}

double unix_time_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A ceiling is a positive, finite number; a zero means it could not be measured here.
bool usable(double ceiling) { return std::isfinite(ceiling) && ceiling > 0; }

}  // namespace

DevicePeaks device_peaks(Device& device, const std::filesystem::path& cache_dir) {
  const std::string key = std::string(to_string(device.backend())) + "-" + device.fingerprint().machine_id;
  const auto file = cache_dir / ("peaks-" + key + ".json");
  // "p95": caches of the median-based peak are measured again; "cache": those without a cache
  // ceiling; "sweep": those whose cache size on a CPU was the reported one; "steady": those that
  // may have been measured in a busy moment (measure/busy_peaks.h).
  const std::string stamp = perfgate_version() + " " + device.fingerprint().driver_version +
                            " p95 cache tensor-large tensor-workgroup sweep steady";
  try {
    std::ifstream in(file);
    if (in) {
      auto j = nlohmann::json::parse(in);
      const Peaks cached{j.at("bandwidth_gbps"), j.at("cache_bandwidth_gbps"), j.at("cache_bytes"),
                         j.at("gflops"), j.at("tensor_gflops")};
      // A cache holding a zero (written by a perfgate command without the peak kernels) is
      // measured again and repaired; so is a provisional one once it has expired.
      const std::string provisional = j.value("provisional", "");
      if (j.at("stamp") == stamp && usable(cached.bandwidth_gbps) && usable(cached.gflops) &&
          (provisional.empty() || still_provisional(j.value("measured_at_s", 0.0), unix_time_s())))
        return {cached, provisional};
    }
  } catch (const std::exception&) {
    // A broken cache is measured again below.
  }
  Peaks peaks;
  const double reported_cache_bytes = static_cast<double>(device.last_level_cache_bytes());
  const Reading dram = measure_peak(device, "copy", metric::bandwidth_gbps);
  peaks.bandwidth_gbps = dram.value;
  // A CPU's reported cache can be its VM host's: there the size is where copy's bandwidth falls.
  // A GPU reports its L2 right, and a copy sweep there measures launch and tail, not the cache.
  std::vector<SweepPoint> sweep;
  PeaksEvidence evidence{.dram = dram.evidence};
  if (device.backend() == Backend::cpu) {
    const CpuWaitMeter waiting;
    sweep = copy_sweep(device, peaks.bandwidth_gbps);
    evidence.sweep.cpu_wait_share = waiting.share();
  }
  const CacheEstimate estimate = estimate_cache(sweep, peaks.bandwidth_gbps);
  // A disturbed sweep (a busy machine) leaves the reported size, as before there was a sweep.
  const bool swept = !sweep.empty() && !estimate.disturbed;
  if (!swept) {
    peaks.cache_bytes = reported_cache_bytes;
  } else {
    peaks.cache_bytes = reported_cache_bytes > 0 ? std::min(estimate.cache_bytes, reported_cache_bytes)
                                                 : estimate.cache_bytes;
    peaks.cache_bandwidth_gbps = estimate.cache_bandwidth_gbps;
  }
  // Half the cache at most, so the working set stays resident beside whatever else the device
  // keeps there. A copy that short is mostly launch and tail on a large GPU (8 MiB in 3.5 µs on
  // the H100), so cache_peak, which rereads its buffer many times in one dispatch, sets the
  // ceiling there; on CPUs the sweep's best copy can be the higher one.
  // A cache is never slower than the memory behind it: a ceiling measured in a busy moment of a
  // shared machine is raised to DRAM's rather than put every in-cache case over 100%.
  if (peaks.cache_bytes > 0) {
    if (!swept)
      peaks.cache_bandwidth_gbps =
          measure_peak(device, "copy", metric::bandwidth_gbps, peaks.cache_bytes / 2).value;
    peaks.cache_bandwidth_gbps =
        std::max({peaks.cache_bandwidth_gbps,
                  measure_peak(device, "cache_peak", metric::bandwidth_gbps, peaks.cache_bytes / 2).value,
                  peaks.bandwidth_gbps});
  } else {
    peaks.cache_bandwidth_gbps = peaks.bandwidth_gbps;  // no working set is in cache
  }
  const Reading fma = measure_peak(device, "fma_peak", metric::gflops);
  peaks.gflops = fma.value;
  // The default tensor_peak point is sized for CI (llvmpipe runs it on the vector units); on a GPU
  // it reached 482 of the 585 TFLOP/s a 16x larger point does on the H100 (docs/performance.md),
  // so the ceiling is measured at that point there: once per device, cached.
  std::map<std::string, std::vector<std::int64_t>> tensor_axes;
  if (device.is_gpu()) tensor_axes = {{"n", {1 << 16}}, {"iters", {512}}};
  // Matrix kernels are judged against the higher of the subgroup- and workgroup-scope ceilings
  // (tensor_peak_workgroup is skipped where the device or this build lacks it).
  peaks.tensor_gflops =
      std::max(measure_peak(device, "tensor_peak", metric::gflops, 0, std::move(tensor_axes)).value,
               measure_peak(device, "tensor_peak_workgroup", metric::gflops).value);
  // Only a complete measurement is cached: a zero would hide `% peak` from every later run.
  if (!usable(peaks.bandwidth_gbps) || !usable(peaks.gflops)) return {peaks, ""};
  // One taken in a busy moment is provisional: later runs use it for a while, then measure again.
  evidence.sweep_disturbed = estimate.disturbed;
  evidence.fma = fma.evidence;
  const std::string busy_why = busy_peaks_reason(evidence);
  // What the cache size was derived from, for a person reading the file.
  nlohmann::json sweep_json = nlohmann::json::array();
  for (const SweepPoint& p : sweep) sweep_json.push_back({p.working_set_bytes, p.bandwidth_gbps});
  try {
    write_file_atomically(file, nlohmann::json{{"stamp", stamp},
                                               {"machine_id", device.fingerprint().machine_id},
                                               {"bandwidth_gbps", peaks.bandwidth_gbps},
                                               {"cache_bandwidth_gbps", peaks.cache_bandwidth_gbps},
                                               {"cache_bytes", peaks.cache_bytes},
                                               {"reported_cache_bytes", reported_cache_bytes},
                                               {"cache_sweep", sweep_json},
                                               {"cache_sweep_disturbed", estimate.disturbed},
                                               {"cpu_wait_share",
                                                {{"dram", evidence.dram.cpu_wait_share},
                                                 {"fma", evidence.fma.cpu_wait_share},
                                                 {"sweep", evidence.sweep.cpu_wait_share}}},
                                               {"gflops", peaks.gflops},
                                               {"tensor_gflops", peaks.tensor_gflops},
                                               {"provisional", busy_why},
                                               {"measured_at_s", unix_time_s()}}
                                    .dump(2));
  } catch (const std::exception&) {
    // A read-only cache folder only costs a re-measurement next time.
  }
  return {peaks, busy_why};
}

}  // namespace perfgate
