#include "measure/measure_case.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>

#include "core/content_digest.h"
#include "core/cpu_wait.h"
#include "core/sysinfo.h"
#include "measure/bound.h"
#include "measure/calibration.h"
#include "measure/stage_bounds.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "perfgate/registry.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// What the case's result depends on in code: the kernel's source and, on Vulkan, the SPIR-V of
// every shader its plan dispatches here, so a shader edit or a glslc change shows as a changed
// source when judged against an older baseline.
std::string code_hash(const Device& device, const CaseSpec& spec) {
  const std::string& source = spec.kernel->source_hash();
  if (spec.backend != Backend::vulkan) return source;
  std::string content = source;
  std::vector<std::string> shaders;
  for (const Dispatch& d : spec.kernel->vulkan_plan(spec.params, device.limits()).dispatches)
    if (std::find(shaders.begin(), shaders.end(), d.shader) == shaders.end()) shaders.push_back(d.shader);
  for (const std::string& name : shaders) {
    const auto words = find_shader(name);
    content += '\n' + name + '\n';
    content.append(reinterpret_cast<const char*>(words.data()), words.size_bytes());
  }
  return sha256_digest(content);
}

}  // namespace

void derive_metrics(CaseResult& result, const Peaks& peaks) {
  auto latency = result.metrics.find(metric::latency_ns);
  if (latency == result.metrics.end()) return;
  const auto& ns = latency->second.samples;
  const double bytes = result.cost.bytes();
  result.peaks = peaks;
  const double ceiling_gbps = bandwidth_ceiling_gbps(peaks, result.fits_in_cache);
  if (bytes > 0) {  // bytes per ns = GB/s (1 GB = 1e9 B)
    result.metrics[metric::bandwidth_gbps] = make_metric(rate_per_ns(ns, bytes));
    if (ceiling_gbps > 0) {
      result.peak_bandwidth_gbps = ceiling_gbps;
      result.metrics[metric::pct_peak_bw] = make_metric(rate_per_ns(ns, 100.0 * bytes / ceiling_gbps));
    }
  }
  if (result.cost.flops > 0) result.metrics[metric::gflops] = make_metric(rate_per_ns(ns, result.cost.flops));
  result.arithmetic_intensity = bytes > 0 ? result.cost.flops / bytes : 0;
  const BoundCall call = classify_bound(result.cost, summarize(ns).median, result.fits_in_cache, peaks);
  result.bound = call.bound;
  result.bound_reason = call.reason;
  if (!result.stages.empty()) classify_stages(result, stage_costs_from_registry(result), peaks);
}

// Every backend keeps a host copy of each buffer: refuse before allocating what cannot fit,
// rather than fail deep inside the allocator or push the machine into swap.
static void check_host_memory(const CaseSpec& spec, const std::vector<BufferSpec>& specs) {
  double needed_bytes = 0;
  for (const auto& s : specs) needed_bytes += static_cast<double>(s.bytes());
  const double memory_bytes = static_cast<double>(host_memory_bytes());
  if (memory_bytes > 0 && needed_bytes > 0.8 * memory_bytes) {
    char text[160];
    std::snprintf(text, sizeof text,
                  ": its buffers need %.0f bytes, over 80%% of this machine's memory (%.0f bytes)",
                  needed_bytes, memory_bytes);
    throw Error(spec.id + text);
  }
}

std::unique_ptr<PreparedCase> prepare_verified(Device& device, const CaseSpec& spec, std::uint64_t seed,
                                               CaseResult& result) {
  name_result(result, spec);
  result.source_hash = spec.kernel->source_hash();
  result.cost = spec.kernel->cost_of(spec.params);
  const auto specs = spec.kernel->buffer_specs(spec.params);
  if (auto why = device.unsupported(*spec.kernel, spec.params, specs)) {
    result.verdict = Verdict::skipped;
    result.message = *why;
    return nullptr;
  }
  result.source_hash = code_hash(device, spec);
  check_host_memory(spec, specs);

  Buffers host(specs);
  Rng rng(seed);
  spec.kernel->fill_inputs(spec.params, host, rng);
  auto prepared = device.prepare(*spec.kernel, spec.params, host);
  prepared->upload(host);  // inputs, and poisoned outputs
  prepared->run_once();
  prepared->download(host);
  CheckResult check = spec.kernel->verify(spec.params, host);
  char seed_text[48];
  std::snprintf(seed_text, sizeof seed_text, " (seed %llu)", static_cast<unsigned long long>(seed));
  result.check = check.detail + seed_text;
  if (!check.ok) {
    result.verdict = Verdict::error;
    result.message = "wrong result: " + result.check;
    return nullptr;
  }
  return prepared;
}

CaseResult measure_case(Device& device, const CaseSpec& spec, const SamplingSettings& options,
                        const Peaks& peaks, std::uint64_t seed) {
  CaseResult result;
  const CpuWaitMeter waiting;
  try {
    // Each allocation: fresh buffers and inputs, checked against the reference, warmed up and
    // sampled for its share of the budget; the samples are pooled.
    const int allocations = std::max(1, options.allocations);
    SamplingSettings share = options;
    share.min_samples = std::max(5, options.min_samples / allocations);
    share.max_samples = std::max(share.min_samples, options.max_samples / allocations);
    share.min_time_s = options.min_time_s / allocations;
    share.timeout_s = options.timeout_s / allocations;
    share.cold_samples = (options.cold_samples + allocations - 1) / allocations;
    // Calibrated: a reference workload measured in the same rounds (measure/calibration.h),
    // checked against its own reference first like any case.
    std::unique_ptr<PreparedCase> reference;
    CaseResult reference_result;
    if (options.calibrate) {
      if (auto ref = calibration_reference(spec, device, peaks, options.calibration_reference)) {
        reference = prepare_verified(device, *ref, seed ^ 0x5eedca1bULL, reference_result);
        if (!reference) throw Error("the calibration reference " + ref->id + ": " + reference_result.message);
        result.calibration_reference = ref->id;
      }
    }
    std::vector<Samples> per_allocation;
    std::unique_ptr<PreparedCase> prepared;
    for (int a = 0; a < allocations; ++a) {
      prepared.reset();  // the previous allocation's buffers go before the next are made
      prepared = prepare_verified(device, spec, seed + static_cast<std::uint64_t>(a), result);
      if (!prepared) return result;
      per_allocation.push_back(
          sample(*prepared, share, GpuClocks::for_device(device.fingerprint()), reference.get()));
    }
    const Samples samples = pool(per_allocation);
    // Waiting for a core stretches a time the host's cores keep (the CPU backend, llvmpipe), not
    // one a GPU's own timestamps keep: two checks on two GPUs of one host wait for each other's
    // threads without moving either GPU's time, and must not read as a busy machine.
    result.cpu_wait_share = device.is_gpu() ? 0 : waiting.share();
    if (!samples.relative.empty()) {
      result.metrics[metric::reference_latency_ns] = make_metric(samples.reference_ns);
      result.metrics[metric::relative_latency] = make_metric(samples.relative);
    }
    result.throttled_samples = samples.throttled;
    if (!samples.sm_mhz.empty()) {
      result.metrics[metric::sm_clock_mhz] = make_metric(samples.sm_mhz);
      result.metrics[metric::memory_clock_mhz] = make_metric(samples.memory_mhz);
    }
    result.metrics[metric::latency_ns] = make_metric(samples.device_ns);
    result.metrics[metric::host_latency_ns] = make_metric(samples.host_ns);
    if (!samples.cold_device_ns.empty())
      result.metrics[metric::cold_latency_ns] = make_metric(samples.cold_device_ns);
    result.encode_ns = prepared->encode_ns_per_dispatch();
    result.local_sizes = prepared->local_sizes();
    result.shader_statistics = prepared->shader_statistics();
    const auto names = prepared->stage_names();
    if (names.size() > 1 && samples.stage_ns.size() == names.size()) {
      double total = 0;
      for (const auto& s : samples.stage_ns) total += median(s);
      for (std::size_t i = 0; i < names.size(); ++i) {
        const double ns = median(samples.stage_ns[i]);
        result.stages.push_back({names[i], ns, total > 0 ? 100.0 * ns / total : 0});
      }
    }
    // Against the cache size the peaks hold (on CPUs where copy's bandwidth falls,
    // measure/cache_sweep.h), or without peaks the size the device reports.
    const double cache_bytes =
        peaks.bandwidth_gbps > 0 ? peaks.cache_bytes : static_cast<double>(device.last_level_cache_bytes());
    result.fits_in_cache = working_set_bytes(spec) <= cache_bytes;
    derive_metrics(result, peaks);
    result.verdict = Verdict::no_baseline;
  } catch (const NoDevice& e) {
    result.verdict = Verdict::skipped;
    result.message = e.reason;
  } catch (const std::exception& e) {
    result.verdict = Verdict::error;
    result.message = e.what();
  }
  return result;
}

}  // namespace perfgate
