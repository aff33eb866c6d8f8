// Which proposals look measured on a busy machine: runs whose noise would widen a case's
// allowance past propose_max_allowed_pct (and past what its thresholds allow anyway).
#include "judge/busy_runs.h"

#include <gtest/gtest.h>

#include <random>

#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

using Runs = std::map<std::string, std::vector<std::vector<double>>>;

// Runs of 60 samples with 1% jitter around each of `medians`.
std::vector<std::vector<double>> runs_at(std::uint64_t seed, const std::vector<double>& medians) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z(0, 0.01);
  std::vector<std::vector<double>> runs;
  for (double m : medians) {
    std::vector<double> run;
    for (int i = 0; i < 60; ++i) run.push_back(m * (1 + z(rng)));
    runs.push_back(run);
  }
  return runs;
}

Thresholds floor_thresholds(const char* metric, double min_allowed_pct) {
  Thresholds t;
  t.metrics[metric].min_allowed_pct = min_allowed_pct;
  return t;
}

TEST(BusyRuns, QuietRunsAreNotBusy) {
  const Runs runs{{metric::latency_ns, runs_at(1, {1000, 1010, 995, 1004, 1001})}};
  EXPECT_FALSE(busy_runs(runs, floor_thresholds(metric::latency_ns, 2)));
}

// Two of five runs beside a busy neighbour, 3x slower: multimodal, allowed 1.5 x the span.
TEST(BusyRuns, RunsInTwoModesFarApartAreBusy) {
  const Runs runs{{metric::latency_ns, runs_at(2, {1000, 3000, 1005, 2900, 998})}};
  const auto why = busy_runs(runs, floor_thresholds(metric::latency_ns, 2));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("multimodal: 2 runs lie apart"), std::string::npos) << *why;
  EXPECT_NE(why->find("would allow 3"), std::string::npos) << *why;
  EXPECT_NE(why->find("propose_max_allowed_pct: 100%"), std::string::npos) << *why;
}

// Two runs, one 3x the other: a run-to-run sigma of 71%, allowed 4 x that.
TEST(BusyRuns, TwoRunsFarApartAreBusy) {
  const Runs runs{{metric::latency_ns, runs_at(3, {1000, 3000})}};
  EXPECT_TRUE(busy_runs(runs, floor_thresholds(metric::latency_ns, 2)));
}

// The quiet CPU proposal's widest case allowed 88% (multimodal): within the bound.
TEST(BusyRuns, AWideButQuietProposalPasses) {
  const Runs runs{{metric::latency_ns, runs_at(4, {1000, 1000, 1500, 1010, 1480})}};
  EXPECT_FALSE(busy_runs(runs, floor_thresholds(metric::latency_ns, 2)));
}

// A fixed allowance wider than the runs' (llvmpipe's raw 900%) loses nothing to them.
TEST(BusyRuns, AFixedAllowanceWiderThanTheRunsIsNotLoosened) {
  Thresholds t;
  t.metrics[metric::latency_ns].max_regression_pct = 900;
  const Runs runs{{metric::latency_ns, runs_at(5, {1000, 3000, 1005, 2900, 998})}};
  EXPECT_FALSE(busy_runs(runs, t));
}

// A calibrated case is judged on relative_latency: busy raw times are not held against it,
// busy relative times are; the bound is a setting.
TEST(BusyRuns, TheJudgedMetricDecides) {
  Thresholds t = floor_thresholds(metric::relative_latency, 2);
  t.metrics[metric::latency_ns].max_regression_pct = 150;
  Runs runs{{metric::latency_ns, runs_at(6, {1000, 5000, 1005, 4900, 998})},
            {metric::relative_latency, runs_at(7, {1.0, 1.01, 0.99, 1.0, 1.02})}};
  EXPECT_FALSE(busy_runs(runs, t));
  runs[metric::relative_latency] = runs_at(8, {1.0, 1.5, 0.99, 1.0, 1.48});
  EXPECT_FALSE(busy_runs(runs, t));  // allowed ~90%
  t.propose_max_allowed_pct = 50;
  const auto why = busy_runs(runs, t);
  ASSERT_TRUE(why);
  EXPECT_TRUE(why->starts_with("relative_latency ")) << *why;
}

// A steady neighbour slows every sample alike, so the runs agree: the time the case's threads
// waited for a core tells it, for a case judged on raw time. A calibrated case's reference waited
// alike and cancels it. Quiet, this 2-vCPU VM's CPU cases waited under 1.2% (llvmpipe's up to
// 6.6%); beside a parallel build 30-98%.
TEST(BusyRuns, ARawTimedCaseThatWaitedForCoresIsBusy) {
  CaseResult r;
  r.id = "triad/cpu/n=1048576";
  r.cpu_wait_share = 0.012;
  EXPECT_FALSE(waited_for_cores(r));
  r.cpu_wait_share = 0.956;
  const auto why = waited_for_cores(r);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "its threads waited for a core 96% of its raw-timed measurement");
  r.calibration_reference = "calibration_stream/cpu/n=1048576";
  EXPECT_FALSE(waited_for_cores(r));
}

}  // namespace
}  // namespace perfgate
