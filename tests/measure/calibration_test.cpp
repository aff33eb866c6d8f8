// Calibrated measurement: which reference calibrates a case, and that a calibrated measurement
// carries the reference's time and the case's relative time, one per round (no timings asserted).
#include "measure/calibration.h"

#include <gtest/gtest.h>

#include "measure/measure_case.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "perfgate/registry.h"

namespace perfgate {
namespace {

CaseSpec cpu_case(const std::string& id) { return parse_case_id(id); }

TEST(Calibration, MemoryBoundCaseGetsTheStreamSizedToItsWorkingSet) {
  auto device = open_cpu_device();
  // copy n=2^20 moves 8 MiB (4 read, 4 written): the stream over 2^20 floats moves the same.
  auto ref = calibration_reference(cpu_case("copy/cpu/n=1048576"), *device, Peaks{100, 1000});
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref->id, "calibration_stream/cpu/n=1048576");
  // rmsnorm 1024 x 4096 moves 16 MiB in and 16 MiB out: the stream over 2^22 floats.
  ref = calibration_reference(cpu_case("rmsnorm/cpu/rows=1024,cols=4096"), *device, Peaks{100, 1000});
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref->id, "calibration_stream/cpu/n=4194304");
}

TEST(Calibration, TheReferenceBatchLastsHalfTheCaseBatch) {
  // A 2 ms reference batch (100 dispatches of 20 us) beside a case batch of one 50 ms dispatch:
  // the reference grows to 25 ms (1250 dispatches).
  EXPECT_EQ(calibration_batch(100, 20e3, 50e6), 1250);
  // A case batch no longer than the reference's keeps the sampler's own sizing.
  EXPECT_EQ(calibration_batch(100, 20e3, 2e6), 100);
  // Unknown times keep it too, and a tiny reference never passes 2^20 dispatches.
  EXPECT_EQ(calibration_batch(100, 0, 50e6), 100);
  EXPECT_EQ(calibration_batch(0, 20e3, 0), 1);
  EXPECT_EQ(calibration_batch(1, 1, 1e12), 1 << 20);
}

TEST(Calibration, ComputeBoundCaseGetsTheMultiplyAddChain) {
  auto device = open_cpu_device();
  auto ref = calibration_reference(cpu_case("fma_peak/cpu/n=16384,iters=1024"), *device, Peaks{100, 1000});
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref->kernel->name(), "calibration_fma");
  // Without peaks, 8 flops per byte is the ridge: a copy is never compute-bound.
  ref = calibration_reference(cpu_case("copy/cpu/n=4096"), *device, Peaks{});
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref->kernel->name(), "calibration_stream");
}

// A baseline's reference is kept whatever the peaks say now: attention_scores (12.8 flops/byte)
// is compute-bound under a ridge of 10 and memory-bound under one of 16, both seen on one 2-core
// VM class, and a relative time compares only with one against the same reference.
TEST(Calibration, TheBaselinesReferenceIsKeptWhateverThePeaksSay) {
  auto device = open_cpu_device();
  const CaseSpec scores = cpu_case("attention_scores/cpu/seq=128,dmodel=512,heads=8");
  EXPECT_EQ(calibration_reference(scores, *device, Peaks{.bandwidth_gbps = 10, .gflops = 100})->kernel->name(), "calibration_fma");
  EXPECT_EQ(calibration_reference(scores, *device, Peaks{.bandwidth_gbps = 10, .gflops = 160})->kernel->name(), "calibration_stream");
  auto pinned = calibration_reference(scores, *device, Peaks{.bandwidth_gbps = 10, .gflops = 160},
                                      "calibration_fma/cpu/n=65536,iters=512");
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->id, "calibration_fma/cpu/n=65536,iters=512");
  // A reference that is no calibration kernel, or of another backend, is an error naming it.
  for (const char* odd : {"copy/cpu/n=65536", "calibration_fma/vulkan/n=65536,iters=512,wg=256"}) {
    try {
      calibration_reference(scores, *device, Peaks{}, odd);
      ADD_FAILURE() << odd << " was taken as a reference";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(odd), std::string::npos) << e.what();
    }
  }
}

TEST(Calibration, MeasurementCarriesReferenceAndRelativeTimePerRound) {
  auto device = open_cpu_device();
  SamplingSettings options;
  options.min_samples = 6;
  options.max_samples = 8;
  options.min_time_s = 0;
  options.timeout_s = 5;
  options.warmup_s = 0;
  options.batch_min_time_ms = 0.2;
  options.cold_samples = 0;
  options.calibrate = true;
  const CaseResult r = measure_case(*device, cpu_case("copy/cpu/n=65536"), options, Peaks{}, 3);
  ASSERT_EQ(r.verdict, Verdict::no_baseline) << r.message;
  EXPECT_EQ(r.calibration_reference, "calibration_stream/cpu/n=65536");
  const auto& latency = r.metrics.at(metric::latency_ns).samples;
  const auto& reference = r.metrics.at(metric::reference_latency_ns).samples;
  const auto& relative = r.metrics.at(metric::relative_latency).samples;
  ASSERT_EQ(reference.size(), latency.size());
  ASSERT_EQ(relative.size(), latency.size());
  for (std::size_t i = 0; i < relative.size(); ++i) EXPECT_DOUBLE_EQ(relative[i], latency[i] / reference[i]);

  options.calibrate = false;
  const CaseResult raw = measure_case(*device, cpu_case("copy/cpu/n=65536"), options, Peaks{}, 3);
  EXPECT_FALSE(raw.metrics.count(metric::relative_latency));
  EXPECT_TRUE(raw.calibration_reference.empty());

  options.calibrate = true;
  options.calibration_reference = "calibration_stream/cpu/n=4096";
  const CaseResult pinned = measure_case(*device, cpu_case("copy/cpu/n=65536"), options, Peaks{}, 3);
  EXPECT_EQ(pinned.calibration_reference, "calibration_stream/cpu/n=4096");
}

}  // namespace
}  // namespace perfgate
