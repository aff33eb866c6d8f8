// The floor a calibrated case gets follows what bounds its time: a case bound by compute or
// latency (in its baseline's runs; in the check where the baseline recorded no bound) is held to
// compute_min_allowed_pct where the thresholds give one; a memory-bound case (or one of unknown
// bound) keeps min_allowed_pct. On the 2-core CI-class machine q4_0_matvec m=k=2560
// (latency-bound against a stream reference) read +21% against a quiet baseline of the same
// morning while its memory-bound neighbours moved a few % (docs/performance.md, "Floors by
// bound"). Seeded synthetic samples.
#include <gtest/gtest.h>

#include <random>

#include "judge/gpu_judge_fixture.h"
#include "judge/judge_case.h"
#include "judge/thresholds.h"
#include "judge/verdict.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

Thresholds shared_cpu() {
  Thresholds t;
  MetricThreshold& relative = t.metrics[metric::relative_latency];
  relative.min_allowed_pct = 5;
  relative.compute_min_allowed_pct = 30;
  return t;
}

// Five quiet runs of one stretch: their sigma (0.2%; 4 x its 90% bound, 3%, under the 5% floor)
// says nothing of other periods.
BaselineCase quiet_baseline(std::mt19937_64& rng, const std::string& bound) {
  BaselineCase b;
  b.periods = 2;  // a merge of two proposals: its moves between periods measured
  b.id = "q4_0_matvec/cpu/m=2560,k=2560";
  b.bound = bound;
  for (int r = 0; r < 5; ++r) b.runs[metric::relative_latency].push_back(gpu_testing::around(rng, 41.4 * (1 + 0.002 * (r - 2)), 0.01));
  return b;
}

CaseResult checked(std::mt19937_64& rng, double relative, const std::string& bound) {
  CaseResult r;
  r.id = "q4_0_matvec/cpu/m=2560,k=2560";
  r.bound = bound;
  r.fits_in_cache = true;
  r.metrics[metric::relative_latency].samples = gpu_testing::around(rng, relative, 0.01);
  return r;
}

const double kPeriodMove = 41.4 * 1.21;  // the +21% of another period

TEST(ComputeFloor, ACaseBoundByComputeOrLatencyIsHeldToItsOwnFloor) {
  for (const char* bound : {"compute", "latency"}) {
    std::mt19937_64 rng(21);
    CaseResult r = checked(rng, kPeriodMove, bound);
    judge_against(r, quiet_baseline(rng, bound), shared_cpu(), Fingerprint{});
    EXPECT_EQ(r.verdict, Verdict::pass) << bound << ": " << r.message;
    ASSERT_EQ(r.judgements.size(), 1u);
    EXPECT_DOUBLE_EQ(r.judgements[0].threshold_pct, 30);
    EXPECT_EQ(r.judgements[0].threshold_source, "floor");
    EXPECT_NE(r.judgements[0].reason.find("compute_min_allowed_pct"), std::string::npos) << r.message;
  }
}

TEST(ComputeFloor, AMemoryBoundCaseKeepsTheFinerFloor) {
  for (const char* bound : {"memory", ""}) {  // an unknown bound counts as memory
    std::mt19937_64 rng(22);
    CaseResult r = checked(rng, kPeriodMove, bound);
    judge_against(r, quiet_baseline(rng, bound), shared_cpu(), Fingerprint{});
    EXPECT_EQ(r.verdict, Verdict::regressed) << "bound \"" << bound << "\": " << r.message;
    EXPECT_DOUBLE_EQ(r.judgements.at(0).threshold_pct, 5);
  }
}

// The baseline's bound decides: a slowdown lowers a case's share of its roof (f16_matvec doing
// 10% more work read as compute-bound), which must not widen its floor. Only a baseline written
// before bounds were recorded leaves it to the check.
TEST(ComputeFloor, TheBaselinesBoundDecides) {
  std::mt19937_64 rng(23);
  CaseResult slowed = checked(rng, kPeriodMove, "compute");
  judge_against(slowed, quiet_baseline(rng, "memory"), shared_cpu(), Fingerprint{});
  EXPECT_EQ(slowed.verdict, Verdict::regressed) << slowed.message;
  CaseResult check_memory = checked(rng, kPeriodMove, "memory");
  judge_against(check_memory, quiet_baseline(rng, "latency"), shared_cpu(), Fingerprint{});
  EXPECT_EQ(check_memory.verdict, Verdict::pass) << check_memory.message;
  CaseResult legacy = checked(rng, kPeriodMove, "compute");
  judge_against(legacy, quiet_baseline(rng, ""), shared_cpu(), Fingerprint{});
  EXPECT_EQ(legacy.verdict, Verdict::pass) << legacy.message;
}

TEST(ComputeFloor, TwiceTheWorkIsStillCaught) {
  std::mt19937_64 rng(24);
  CaseResult r = checked(rng, 2 * 41.4, "compute");
  judge_against(r, quiet_baseline(rng, "compute"), shared_cpu(), Fingerprint{});
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
}

TEST(ComputeFloor, ItNeverNarrowsAWiderAllowance) {
  MetricThreshold t;
  t.min_allowed_pct = 40;
  t.compute_min_allowed_pct = 30;
  EXPECT_EQ(t.for_case({.memory_bound = false}).min_allowed_pct, 40);
  MetricThreshold fixed;
  fixed.max_regression_pct = 60;
  fixed.compute_min_allowed_pct = 30;
  EXPECT_FALSE(fixed.for_case({.memory_bound = false}).min_allowed_pct.has_value());
  MetricThreshold none;
  none.min_allowed_pct = 5;
  EXPECT_EQ(none.for_case({.memory_bound = false}).min_allowed_pct, 5);  // no compute floor given
}

// What `baseline propose` and `baseline show` print as a case's resolution, and what a check
// samples to before it is measured, follow the bound the baseline recorded.
TEST(ComputeFloor, TheResolutionBeforeACheckFollowsTheRecordedBound) {
  std::mt19937_64 rng(25);
  const BaselineCase compute = quiet_baseline(rng, "latency");
  const BaselineCase memory = quiet_baseline(rng, "memory");
  EXPECT_DOUBLE_EQ(least_allowance_pct(compute, shared_cpu()), 30);
  EXPECT_DOUBLE_EQ(least_allowance_pct(memory, shared_cpu()), 5);
  EXPECT_DOUBLE_EQ(latency_noise(compute.runs, shared_cpu(), {.memory_bound = false})->allowance.pct, 30);
  EXPECT_DOUBLE_EQ(latency_noise(memory.runs, shared_cpu())->allowance.pct, 5);
}

TEST(ComputeFloor, TheThresholdsFileSetsItPerMachineGlob) {
  const ThresholdSet set = ThresholdSet::from_yaml_text(
      "defaults:\n"
      "  metrics:\n"
      "    relative_latency: {min_allowed_pct: 2}\n"
      "overrides:\n"
      "  - match: {machine: \"cpu-*\"}\n"
      "    metrics:\n"
      "      relative_latency: {min_allowed_pct: 5, compute_min_allowed_pct: 30}\n",
      "t.yaml");
  const Thresholds cpu = set.resolve("matmul/cpu/m=512,n=2560,k=2560", "cpu-intel-xeon-2t");
  EXPECT_EQ(cpu.metrics.at(metric::relative_latency).compute_min_allowed_pct, 30);
  const Thresholds gpu = set.resolve("matmul/vulkan/m=512,n=512,k=512", "nvidia-h100-80gb-hbm3");
  EXPECT_FALSE(gpu.metrics.at(metric::relative_latency).compute_min_allowed_pct.has_value());
  try {
    (void)ThresholdSet::from_yaml_text(
        "defaults:\n  metrics:\n    relative_latency: {min_allowed_pct: 2, compute_min_allowed_pct: -1}\n", "bad.yaml");
    FAIL() << "a negative floor was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("compute_min_allowed_pct"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace perfgate
