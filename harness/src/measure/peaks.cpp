#include "measure/peaks.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/sysinfo.h"
#include "measure/case_selection.h"
#include "perfgate/metric_names.h"
#include "perfgate/registry.h"

namespace perfgate {
namespace {

// The largest default point of a kernel that the device can hold, measured quickly. A ceiling is
// what the device reaches, and noise only ever lowers a sample, so the peak is the samples' 95th
// percentile, not their median: on a shared CI machine a median taken in a busy moment put
// every later case above 100% of "peak".
double measure_peak(Device& device, const char* kernel_name, bool flops) {
  const KernelDef* kernel = find_kernel(kernel_name);
  if (!kernel || !kernel->has_backend(device.backend())) return 0;
  Selection selection;
  selection.kernel_glob = kernel_name;
  selection.backends = {device.backend()};
  auto cases = select_cases(selection);
  SamplingSettings quick;
  quick.min_samples = 5;
  quick.min_time_s = 0.1;
  quick.timeout_s = 5;
  quick.target_precision_pct = 2;
  quick.cold_samples = 0;
  double best = 0;
  std::reverse(cases.begin(), cases.end());  // largest first
  for (const auto& spec : cases) {
    CaseResult r = measure_case(device, spec, quick, Peaks{}, 1);
    if (r.verdict == Verdict::error || r.verdict == Verdict::skipped) continue;
    const auto& m = r.metrics[flops ? metric::gflops : metric::bandwidth_gbps];
    best = std::max(best, m.summary.p95);
    break;
  }
  return best;
}

// A ceiling is a positive, finite number; a zero means it could not be measured here.
bool usable(double ceiling) { return std::isfinite(ceiling) && ceiling > 0; }

}  // namespace

Peaks device_peaks(Device& device, const std::filesystem::path& cache_dir) {
  const std::string key = std::string(to_string(device.backend())) + "-" + device.fingerprint().machine_id;
  const auto file = cache_dir / ("peaks-" + key + ".json");
  // "p95": caches of the median-based peak are measured again.
  const std::string stamp = perfgate_version() + " " + device.fingerprint().driver_version + " p95";
  try {
    std::ifstream in(file);
    if (in) {
      auto j = nlohmann::json::parse(in);
      const Peaks cached{j.at("bandwidth_gbps"), j.at("gflops")};
      // A cache holding a zero (written by a perfgate command without the peak kernels) is
      // measured again and repaired.
      if (j.at("stamp") == stamp && usable(cached.bandwidth_gbps) && usable(cached.gflops)) return cached;
    }
  } catch (const std::exception&) {
    // A broken cache is measured again below.
  }
  Peaks peaks{measure_peak(device, "copy", false), measure_peak(device, "fma_peak", true)};
  // Only a complete measurement is cached: a zero would hide `% peak` from every later run.
  if (!usable(peaks.bandwidth_gbps) || !usable(peaks.gflops)) return peaks;
  try {
    write_file_atomically(file, nlohmann::json{{"stamp", stamp},
                                               {"machine_id", device.fingerprint().machine_id},
                                               {"bandwidth_gbps", peaks.bandwidth_gbps},
                                               {"gflops", peaks.gflops}}
                                    .dump(2));
  } catch (const std::exception&) {
    // A read-only cache folder only costs a re-measurement next time.
  }
  return peaks;
}

}  // namespace perfgate
