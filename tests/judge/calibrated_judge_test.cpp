// A calibrated case judged against a calibrated baseline: on its time relative to the reference,
// not on the raw time that moved with the whole machine. Seeded synthetic samples.
#include <gtest/gtest.h>

#include <random>

#include "judge/judge_case.h"
#include "judge/verdict.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

std::vector<double> around(std::mt19937_64& rng, double median, int n = 40) {
  std::normal_distribution<double> z(0, 0.02);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(median * (1 + z(rng)));
  return v;
}

Thresholds cpu_thresholds() {
  Thresholds t;
  t.metrics[metric::latency_ns].max_regression_pct = 150;
  t.metrics[metric::relative_latency].max_regression_pct = 50;
  return t;
}

BaselineCase baseline(std::mt19937_64& rng) {
  BaselineCase b;
  b.id = "copy/cpu/n=1048576";
  for (int r = 0; r < 3; ++r) {
    b.runs[metric::latency_ns].push_back(around(rng, 50000));
    b.runs[metric::relative_latency].push_back(around(rng, 1.0));
  }
  return b;
}

CaseResult measured(std::mt19937_64& rng, double latency, double relative) {
  CaseResult r;
  r.id = "copy/cpu/n=1048576";
  r.metrics[metric::latency_ns].samples = around(rng, latency);
  r.metrics[metric::relative_latency].samples = around(rng, relative);
  return r;
}

TEST(CalibratedJudge, BusyMachineMovesRawTimeOnlyAndPasses) {
  std::mt19937_64 rng(5);
  const BaselineCase b = baseline(rng);
  CaseResult r = measured(rng, 4 * 50000, 1.02);  // everything 4x slower, reference too
  judge_against(r, b, cpu_thresholds(), Fingerprint{});
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  ASSERT_EQ(r.judgements.size(), 1u);
  EXPECT_EQ(r.judgements[0].metric, metric::relative_latency);
  EXPECT_EQ(r.metrics.count(metric::latency_ns), 1u) << "the raw time stays in the results";
}

TEST(CalibratedJudge, TwiceTheWorkRegressesThroughRelativeTime) {
  std::mt19937_64 rng(6);
  const BaselineCase b = baseline(rng);
  CaseResult r = measured(rng, 2 * 50000, 2.0);
  judge_against(r, b, cpu_thresholds(), Fingerprint{});
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  EXPECT_NE(r.message.find("relative_latency"), std::string::npos) << r.message;
}

TEST(CalibratedJudge, UncalibratedBaselineFallsBackToRawTime) {
  std::mt19937_64 rng(7);
  BaselineCase b = baseline(rng);
  b.runs.erase(metric::relative_latency);  // approved before calibration
  CaseResult r = measured(rng, 3 * 50000, 1.0);
  judge_against(r, b, cpu_thresholds(), Fingerprint{});
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  bool raw_judged = false;
  for (const auto& j : r.judgements) raw_judged |= j.metric == metric::latency_ns;
  EXPECT_TRUE(raw_judged);
}

// A ratio to another reference is no evidence either way: 40x "slower" was attention_scores on
// llvmpipe judged against a stream while its baseline was against the multiply-add chain.
TEST(CalibratedJudge, AnotherReferenceThanTheBaselinesIsAnErrorNotAVerdict) {
  std::mt19937_64 rng(8);
  BaselineCase b = baseline(rng);
  b.calibration_reference = "calibration_fma/cpu/n=65536,iters=512";
  CaseResult r = measured(rng, 50000, 40.0);
  r.calibration_reference = "calibration_stream/cpu/n=1048576";
  judge_against(r, b, cpu_thresholds(), Fingerprint{});
  EXPECT_EQ(r.verdict, Verdict::error) << r.message;
  EXPECT_NE(r.message.find("calibrated against calibration_stream/cpu/n=1048576, its baseline against "
                           "calibration_fma/cpu/n=65536,iters=512"),
            std::string::npos)
      << r.message;
  r.calibration_reference = b.calibration_reference;  // the same reference: judged
  r.verdict = Verdict::no_baseline;
  judge_against(r, b, cpu_thresholds(), Fingerprint{});
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
}

// What `baseline propose` and `baseline show` report for a calibrated case: the noise of its
// relative time, not of the raw time a busy machine threw around (here 1x, 3x and 40x).
TEST(CalibratedJudge, StoredResolutionComesFromRelativeTime) {
  std::mt19937_64 rng(8);
  BaselineCase b = baseline(rng);
  b.runs[metric::latency_ns][1] = around(rng, 3 * 50000);
  b.runs[metric::latency_ns][2] = around(rng, 40 * 50000);
  Thresholds t = cpu_thresholds();
  t.metrics[metric::latency_ns].max_regression_pct.reset();
  t.metrics[metric::latency_ns].min_allowed_pct = 2;
  const auto noise = latency_noise(b.runs, t);
  ASSERT_TRUE(noise);
  EXPECT_FALSE(noise->noise.unstable) << noise->noise.why;
  EXPECT_LT(noise->noise.sigma_pct, 5);
  EXPECT_EQ(noise->allowance.pct, 50);  // relative_latency's fixed allowance (cpu_thresholds)

  b.runs.erase(metric::relative_latency);  // uncalibrated: the raw runs, multimodal
  EXPECT_GT(latency_noise(b.runs, t)->noise.range_pct, 100);
}

// What a check samples to (measure/precision_criterion.h, verdict-precision): the least of the
// allowances the judge could give, here the relative time's 50%, not the raw time's 150%; an
// absolute floor makes the verdict no matter of allowance, so none is known.
TEST(CalibratedJudge, TheLeastAllowanceIsTheRelativeTimes) {
  std::mt19937_64 rng(9);
  const BaselineCase b = baseline(rng);
  Thresholds t = cpu_thresholds();
  EXPECT_DOUBLE_EQ(least_allowance_pct(b, t), 50);
  // What judge_against allows the case is never less.
  CaseResult r = measured(rng, 50000, 1.0);
  judge_against(r, b, t, Fingerprint{});
  ASSERT_EQ(r.judgements.size(), 1u);
  EXPECT_GE(r.judgements[0].threshold_pct, least_allowance_pct(b, t));
  t.metrics[metric::pct_peak_bw].floor = 10;
  EXPECT_DOUBLE_EQ(least_allowance_pct(b, t), 0);
  EXPECT_DOUBLE_EQ(least_allowance_pct(BaselineCase{}, cpu_thresholds()), 0);  // no runs
}

}  // namespace
}  // namespace perfgate
