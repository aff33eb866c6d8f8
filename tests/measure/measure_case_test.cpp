#include "measure/measure_case.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "measure/device.h"
#include "measure/sampler.h"
#include "perfgate/registry.h"
#include "stats/run_noise.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

SamplingSettings quick() {
  SamplingSettings o;
  o.min_samples = 3;
  o.max_samples = 5;
  o.min_time_s = 0;
  // max_samples ends the sampling; the budget only has to outlast a busy machine, where the cold
  // samples' first cache flush alone once took the 2 s this was (one cold sample instead of 2).
  o.timeout_s = 60;
  o.warmup_s = 0;
  o.batch_min_time_ms = 0.1;
  o.cold_samples = 2;
  return o;
}

CaseSpec small_case(const std::string& kernel, std::vector<std::pair<std::string, std::int64_t>> p) {
  const KernelDef* k = find_kernel(kernel);
  EXPECT_NE(k, nullptr) << kernel;
  Params params(std::move(p));
  return {k, Backend::cpu, params, case_id(kernel, Backend::cpu, params)};
}

// A kernel that forgets the last element: the poisoned output must turn into an error.
KernelDef forgetful_copy() {
  KernelDef k = *find_kernel("copy");
  return k.cpu([](const Params& p, Buffers& b) {
    auto a = b.get<float>("a");
    auto out = b.get<float>("b");
    for (std::int64_t i = 0; i + 1 < p["n"]; ++i) out[i] = a[i];
  });
}

}  // namespace

TEST(MeasureCase, MemoryKernelsAreCorrectAndMeasured) {
  auto device = open_cpu_device();
  for (const auto& spec :
       {small_case("copy", {{"n", 4096}}), small_case("triad", {{"n", 4096}}),
        small_case("reduce", {{"n", 100000}}), small_case("fma_peak", {{"n", 64}, {"iters", 64}})}) {
    CaseResult r = measure_case(*device, spec, quick(), Peaks{10, 100}, 42);
    EXPECT_EQ(r.verdict, Verdict::no_baseline) << spec.id << ": " << r.message;
    ASSERT_TRUE(r.metrics.count("latency_ns")) << spec.id;
    EXPECT_GE(r.metrics["latency_ns"].samples.size(), 3u);
    EXPECT_GT(r.metrics["latency_ns"].summary.median, 0);
    EXPECT_TRUE(r.metrics.count("bandwidth_gbps"));
    EXPECT_TRUE(r.metrics.count("pct_peak_bw"));
    EXPECT_EQ(r.metrics["cold_latency_ns"].samples.size(), 2u);
    EXPECT_FALSE(r.bound.empty());
    EXPECT_NE(r.check.find("seed 42"), std::string::npos);
  }
}

TEST(MeasureCase, UnwrittenOutputIsAnError) {
  auto device = open_cpu_device();
  KernelDef bad = forgetful_copy();
  Params params({{"n", 1024}});
  CaseResult r = measure_case(*device, {&bad, Backend::cpu, params, "copy/cpu/n=1024"}, quick(), Peaks{}, 7);
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("wrong result"), std::string::npos) << r.message;
  EXPECT_TRUE(r.metrics.empty()) << "a wrong kernel is never timed";
}

TEST(MeasureCase, RooflineBound) {
  CaseResult r;
  r.cost = {1000, 1000, 100};  // 0.05 flop/byte
  r.metrics["latency_ns"].samples = {100, 100};
  derive_metrics(r, Peaks{100, 1000});  // ridge at 10 flop/byte
  EXPECT_EQ(r.bound, "memory");
  EXPECT_DOUBLE_EQ(r.metrics["bandwidth_gbps"].summary.median, 20);
  EXPECT_DOUBLE_EQ(r.metrics["pct_peak_bw"].summary.median, 20);
  r.cost = {10, 10, 1000};  // 50 flop/byte
  derive_metrics(r, Peaks{100, 1000});
  EXPECT_EQ(r.bound, "compute");
}

// A device whose dispatches get 1.76x faster after a while, as an H100 did mid-measurement:
// the sampler drops the slow plateau and reports the settled time.
class ClockStepCase : public PreparedCase {
 public:
  void upload(const Buffers&) override {}
  void run_once() override {}
  void download(Buffers&) override {}
  BatchTiming time_batch(int dispatches, bool) override {
    const double per_dispatch = ++batches_ < 25 ? 1.76e6 : 1e6;
    return {dispatches, per_dispatch * dispatches, per_dispatch * dispatches, {per_dispatch * dispatches}};
  }
  std::vector<std::string> stage_names() const override { return {"copy"}; }

 private:
  int batches_ = 0;
};

TEST(MeasureSampler, RestartsAfterALevelShiftAndKeepsTheSettledSamples) {
  ClockStepCase device;
  SamplingSettings options;
  options.min_samples = 30;  // the plateau outlasts the warm-up and ends inside the sampling
  options.min_time_s = 0;
  options.warmup_s = 0;
  options.cold_samples = 0;
  const Samples samples = sample(device, options);
  EXPECT_GE(samples.restarts, 1);
  ASSERT_FALSE(samples.device_ns.empty());
  EXPECT_DOUBLE_EQ(*std::max_element(samples.device_ns.begin(), samples.device_ns.end()), 1e6);
}

// The machine's level steps 1.76x faster after its 50th batch, whichever case ran it; a case
// that feels the step (a reference of the same machine does) times `ns` per dispatch after it.
struct MachineLevel {
  int batches = 0;
};
class MachineLevelCase : public PreparedCase {
 public:
  MachineLevelCase(MachineLevel& level, double ns, bool feels_step) : level_(level), ns_(ns), feels_(feels_step) {}
  void upload(const Buffers&) override {}
  void run_once() override {}
  void download(Buffers&) override {}
  BatchTiming time_batch(int dispatches, bool) override {
    const double per_dispatch = ns_ * (feels_ && ++level_.batches < 50 ? 1.76 : 1.0);
    if (!feels_) ++level_.batches;
    return {dispatches, per_dispatch * dispatches, per_dispatch * dispatches, {per_dispatch * dispatches}};
  }
  std::vector<std::string> stage_names() const override { return {"case"}; }

 private:
  MachineLevel& level_;
  double ns_;
  bool feels_;
};

// Calibrated, the shift is looked for in the relative series the verdict reads: a step both the
// case and its reference feel moves no ratio and keeps every sample; one only the case feels
// starts sampling again, as uncalibrated.
TEST(MeasureSampler, CalibratedSamplingRestartsOnlyOnAShiftOfTheRelativeTime) {
  SamplingSettings options;
  options.min_samples = 30;
  options.min_time_s = 0;
  options.warmup_s = 0;
  options.cold_samples = 0;
  MachineLevel shared;
  MachineLevelCase both_case(shared, 1e6, true), both_reference(shared, 5e5, true);
  const Samples together = sample(both_case, options, nullptr, &both_reference);
  EXPECT_EQ(together.restarts, 0);
  ASSERT_EQ(together.relative.size(), 30u);
  EXPECT_GT(*std::max_element(together.device_ns.begin(), together.device_ns.end()), 1.5e6);  // the step is inside
  EXPECT_DOUBLE_EQ(median(together.relative), 2.0);

  MachineLevel own;
  MachineLevelCase alone_case(own, 1e6, true), steady_reference(own, 5e5, false);
  const Samples apart = sample(alone_case, options, nullptr, &steady_reference);
  EXPECT_GE(apart.restarts, 1);
  ASSERT_FALSE(apart.relative.empty());
  EXPECT_DOUBLE_EQ(*std::max_element(apart.relative.begin(), apart.relative.end()), 2.0);
}

}  // namespace perfgate

namespace perfgate {

// Four placements 0.5% apart, each steady: pooled in relative time, no third of the series is
// dominated by one placement, so the drift test sees none. A drift inside every allocation
// still shows. Seeded jitter, no timing.
TEST(MeasureSampler, PoolingAllocationsKeepsDriftWithinThemOnly) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> jitter(0, 0.05);
  auto allocation = [&](double level, double drift_per_sample, int n) {
    Samples s;
    for (int i = 0; i < n; ++i) {
      s.device_ns.push_back(level * (1 + jitter(rng) / 100 + drift_per_sample * i));
      s.host_ns.push_back(s.device_ns.back());
    }
    s.converged = true;
    return s;
  };
  std::vector<Samples> steady;
  for (int a = 0; a < 4; ++a) steady.push_back(allocation(100 + 0.5 * a, 0, 40 + 5 * a));
  const Samples pooled = pool(steady);
  ASSERT_EQ(pooled.device_ns.size(), 40u + 45 + 50 + 55);
  EXPECT_EQ(drift_pct(pooled.device_ns), 0);
  std::vector<double> concatenated;
  for (const auto& a : steady) concatenated.insert(concatenated.end(), a.device_ns.begin(), a.device_ns.end());
  EXPECT_GT(drift_pct(concatenated), 0.5);  // what the drift test saw before pooling by position

  std::vector<Samples> drifting;
  for (int a = 0; a < 4; ++a) drifting.push_back(allocation(100 + 0.5 * a, 0.0005, 50));  // +2.5% over each
  EXPECT_GT(drift_pct(pool(drifting).device_ns), 1.0);
}

TEST(MeasureCase, AllocationsPoolFreshBufferSets) {
  // Three allocations: each checked against the reference with its own seed (the last one's is
  // reported), each sampled for its share, the samples pooled.
  auto device = open_cpu_device();
  SamplingSettings three = quick();
  three.allocations = 3;
  three.min_samples = 15;  // 5 per allocation
  three.max_samples = 15;
  three.cold_samples = 3;  // 1 per allocation
  CaseResult r = measure_case(*device, small_case("copy", {{"n", 4096}}), three, Peaks{10, 100}, 42);
  ASSERT_EQ(r.verdict, Verdict::no_baseline) << r.message;
  EXPECT_EQ(r.metrics["latency_ns"].samples.size(), 15u);
  EXPECT_EQ(r.metrics["cold_latency_ns"].samples.size(), 3u);
  EXPECT_NE(r.check.find("seed 44"), std::string::npos) << r.check;
}

}  // namespace perfgate
