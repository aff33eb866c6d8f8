// What the harness itself costs, per sample and per judgement (Google Benchmark). Not a test:
// it asserts nothing about time. Figures and the command are on docs/performance.md.
//
//   build/tests/perfgate_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "judge/verdict.h"
#include "measure/device.h"
#include "measure/sampler.h"
#include "perfgate/kernel.h"
#include "perfgate/registry.h"
#include "stats/sample_series.h"
#include "stats/significance.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// A kernel that does nothing: timing it measures only the backend's timing path.
KernelDef empty_kernel() {
  return KernelDef("empty")
      .buffers([](const Params&) {
        return std::vector<BufferSpec>{{"x", ElementType::f32, 16, BufferRole::output}};
      })
      .cost([](const Params&) {
        return Cost{0, 64, 0};
      })
      .cpu([](const Params&, Buffers&) {});
}

// One CPU sample of an empty kernel: clock reads, the OpenMP-free call path, the batch loop.
void CpuSampleOverhead(benchmark::State& state) {
  const KernelDef kernel = empty_kernel();
  const Params params;
  auto device = open_cpu_device();
  Buffers host(kernel.buffer_specs(params));
  auto prepared = device->prepare(kernel, params, host);
  const int dispatches = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(prepared->time_batch(dispatches, false));
  state.SetItemsProcessed(state.iterations() * dispatches);
}
BENCHMARK(CpuSampleOverhead)->Arg(1)->Arg(1000);

#ifdef PERFGATE_HAS_VULKAN
// One Vulkan sample of a tiny copy: submit, fence wait, timestamp readback. The counter is the
// host's wall time beyond the GPU's, the part of a sample that is not the kernel.
void VulkanSampleOverhead(benchmark::State& state) {
  std::unique_ptr<Device> device;
  try {
    device = open_vulkan_device("");
  } catch (const NoDevice& e) {
    state.SkipWithError(e.reason.c_str());
    return;
  }
  const KernelDef* kernel = find_kernel("copy");
  const Params params({{"n", 1024}, {"wg", 256}});
  Buffers host(kernel->buffer_specs(params));
  auto prepared = device->prepare(*kernel, params, host);
  prepared->upload(host);
  double host_minus_gpu = 0;
  for (auto _ : state) {
    const BatchTiming t = prepared->time_batch(1, false);
    host_minus_gpu += t.host_ns - t.device_ns;
  }
  state.counters["host_minus_gpu_ns"] = host_minus_gpu / static_cast<double>(state.iterations());
  state.SetLabel(device->fingerprint().device_name);
}
BENCHMARK(VulkanSampleOverhead)->Unit(benchmark::kMicrosecond);
#endif

std::vector<double> noisy_samples(std::size_t n, double median, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> noise(0, 0.03);
  std::vector<double> v(n);
  for (double& x : v) x = median * noise(rng);
  return v;
}

// The sampler's stopping rule runs after every sample.
void StoppingRule(benchmark::State& state) {
  const auto samples = noisy_samples(static_cast<std::size_t>(state.range(0)), 1e5, 1);
  for (auto _ : state) benchmark::DoNotOptimize(median_relative_precision(samples));
}
BENCHMARK(StoppingRule)->Arg(20)->Arg(200);

void Summary(benchmark::State& state) {
  const auto samples = noisy_samples(static_cast<std::size_t>(state.range(0)), 1e5, 2);
  for (auto _ : state) benchmark::DoNotOptimize(summarize(samples));
}
BENCHMARK(Summary)->Arg(200);

// One metric's judgement against a baseline of 5 runs: rank test + 2000-resample bootstrap.
void JudgeMetric(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto current = noisy_samples(n, 1.02e5, 3);
  std::vector<std::vector<double>> baseline;
  for (std::uint64_t r = 0; r < 5; ++r) baseline.push_back(noisy_samples(n, 1e5, 10 + r));
  MetricThreshold threshold;
  threshold.max_regression_pct = 15;
  for (auto _ : state)
    benchmark::DoNotOptimize(judge_metric("latency_ns", current, baseline, threshold, 0.01, 2.0));
}
BENCHMARK(JudgeMetric)->Arg(20)->Arg(200)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace perfgate

BENCHMARK_MAIN();
