// Bandwidth and GFLOP/s are work over the one measured latency: they resolve no finer than it.
// A short kernel whose latency change is within latency's min_change is not judged a change by
// its rates either, however closely the baseline's runs agree. Seeded synthetic samples.
#include <gtest/gtest.h>

#include <random>

#include "judge/gpu_judge_fixture.h"
#include "judge/judge_case.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

constexpr double kRateBytes = 4.0e6;  // bytes moved per dispatch: bandwidth = bytes / latency

CaseResult short_kernel(std::mt19937_64& rng, double latency_ns) {
  CaseResult r = gpu_testing::measured_on_gpu(rng, "q4_0_matvec/vulkan/m=2560,k=2560,wg=32", latency_ns, true,
                                              0.0005);
  for (double ns : r.metrics[metric::latency_ns].samples)
    r.metrics[metric::bandwidth_gbps].samples.push_back(kRateBytes / ns);
  return r;
}

BaselineCase short_baseline(std::mt19937_64& rng) {
  BaselineCase b;
  b.periods = 2;  // a merge of two proposals: its moves between periods measured
  b.id = "q4_0_matvec/vulkan/m=2560,k=2560,wg=32";
  b.fingerprint = gpu_testing::h100("2614b9718d0afb6f");
  for (int run = 0; run < 5; ++run) {
    const std::vector<double> ns = gpu_testing::around(rng, 10000, 0.0002);
    b.runs[metric::latency_ns].push_back(ns);
    std::vector<double> rate;
    for (double v : ns) rate.push_back(kRateBytes / v);
    b.runs[metric::bandwidth_gbps].push_back(rate);
  }
  return b;
}

Thresholds latency_and_rate() {
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 0;
  t.metrics[metric::latency_ns].min_change = 50;  // 0.5% of 10 us
  t.metrics[metric::bandwidth_gbps].direction = Direction::higher;
  t.metrics[metric::bandwidth_gbps].min_allowed_pct = 0;
  return t;
}

TEST(RateResolution, ARateResolvesNoFinerThanItsLatency) {
  std::mt19937_64 rng(31);
  CaseResult r = short_kernel(rng, 10030);  // +0.3%: within the 50 ns latency resolves
  judge_against(r, short_baseline(rng), latency_and_rate(), gpu_testing::h100("2614b9718d0afb6f"));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  for (const Judgement& j : r.judgements) {
    EXPECT_EQ(j.threshold_source, "min_change") << j.metric;
    EXPECT_NEAR(j.threshold_pct, 0.5, 0.01) << j.metric;
  }
}

TEST(RateResolution, PastTheLatencysResolutionBothRegress) {
  std::mt19937_64 rng(32);
  CaseResult r = short_kernel(rng, 10150);  // +1.5%
  judge_against(r, short_baseline(rng), latency_and_rate(), gpu_testing::h100("2614b9718d0afb6f"));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  ASSERT_EQ(r.judgements.size(), 2u);
  for (const Judgement& j : r.judgements) EXPECT_EQ(j.verdict, Verdict::regressed) << j.metric;
}

}  // namespace
}  // namespace perfgate
