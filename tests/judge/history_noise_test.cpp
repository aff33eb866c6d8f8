// A machine's history as the record of its own noise: the spread of a case's gated runs, from
// enough of them, bounded for their number, robust to a step in the series, per GPU of a host;
// and a check judged with it in place of a class's floor. Seeded synthetic runs.
#include "judge/history_noise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "judge/gpu_judge_fixture.h"
#include "judge/judge_case.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

const std::string kCopy = "copy/vulkan/n=33554432,wg=256";

// `runs` gated runs of copy on one GPU: latency 68.7 us x a seeded Gaussian spread of `sigma_pct`,
// `step_pct` slower from run `step_at` on (never when negative).
std::vector<HistoryPoint> gated_runs(int runs, double sigma_pct, unsigned seed, int step_at = -1,
                                     double step_pct = 0, const std::string& device = "gpu-0") {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0, sigma_pct / 100);
  std::vector<HistoryPoint> points;
  for (int i = 0; i < runs; ++i) {
    HistoryPoint p;
    p.machine_id = "nvidia-h200";
    p.case_id = kCopy;
    p.device_uuid = device;
    p.run_id = device + "-run-" + std::to_string(i);
    p.commit = "c" + std::to_string(i);
    p.started_at = std::to_string(1000 + i);
    p.source_hash = "sha256:copy";
    const double step = step_at >= 0 && i >= step_at ? 1 + step_pct / 100 : 1.0;
    p.medians[metric::latency_ns] = 68700 * step * (1 + noise(random));
    points.push_back(p);
  }
  return points;
}

ThresholdSet history_thresholds() {
  return ThresholdSet::from_yaml_text(
      "defaults:\n  history: {min_magnitude_pct: 0, drift_max_pct: 0}\n  metrics:\n"
      "    latency_ns: {direction: lower, min_allowed_pct: 2}\n",
      "t.yaml");
}

TEST(HistoryNoise, FewerRunsThanABaselineSayNothing) {
  EXPECT_TRUE(history_noise(gated_runs(kHistoryNoiseRuns - 1, 0.02, 1), history_thresholds(), "").empty());
  EXPECT_EQ(history_noise(gated_runs(kHistoryNoiseRuns, 0.02, 1), history_thresholds(), "").count(kCopy), 1u);
}

TEST(HistoryNoise, TheBoundTightensAsRunsAccumulate) {
  // The same 0.05% spread: 8 runs' bound is wider than 40 runs', and both lie near the truth.
  const auto few = history_noise(gated_runs(8, 0.05, 2), history_thresholds(), "").at(kCopy);
  const auto many = history_noise(gated_runs(40, 0.05, 2), history_thresholds(), "").at(kCopy);
  EXPECT_GT(few.bound_pct / few.sigma_pct, many.bound_pct / many.sigma_pct);
  EXPECT_NEAR(many.sigma_pct, 0.05, 0.02);
  EXPECT_GE(many.bound_pct, many.sigma_pct);
  EXPECT_NE(many.why.find("40 runs"), std::string::npos) << many.why;
}

TEST(HistoryNoise, AStepIsNotNoise) {
  // A +0.4% step (20 sigma) at run 25 of 37: the spread stays that of the runs around it.
  const auto n = history_noise(gated_runs(37, 0.02, 3, 25, 0.4), history_thresholds(), "").at(kCopy);
  EXPECT_LT(n.sigma_pct, 0.04);
}

TEST(HistoryNoise, ARareSlowModeWidensIt) {
  // Runs that land 0.3% slower one time in five (an H200's fill between periods): the spread
  // covers them, where five quiet runs of one period would not.
  std::vector<HistoryPoint> points = gated_runs(30, 0.02, 4);
  for (std::size_t i = 2; i < points.size(); i += 5) points[i].medians[metric::latency_ns] *= 1.003;
  const auto n = history_noise(points, history_thresholds(), "").at(kCopy);
  EXPECT_GT(4 * n.bound_pct, 0.3);
}

TEST(HistoryNoise, EachGpuOfAHostHasItsOwn) {
  std::vector<HistoryPoint> points = gated_runs(12, 0.02, 5, -1, 0, "gpu-0");
  for (auto& p : gated_runs(12, 1.0, 6, -1, 0, "gpu-1")) points.push_back(p);
  const auto quiet = history_noise(points, history_thresholds(), "gpu-0").at(kCopy);
  const auto noisy = history_noise(points, history_thresholds(), "gpu-1").at(kCopy);
  EXPECT_LT(quiet.sigma_pct, 0.05);
  EXPECT_GT(noisy.sigma_pct, 0.5);
}

// A check of copy 0.3% slower, against a baseline whose five runs agree to 0.01%.
struct Judged {
  CaseResult result;
  Judgement latency;
};
Judged judge_slower(const HistoryNoise* history, std::optional<double> floor_pct, double slower = 1.003) {
  std::mt19937_64 rng(7);
  BaselineCase b;
  b.id = kCopy;
  b.backend = "vulkan";
  b.fingerprint = gpu_testing::h100("gpu-0");
  for (int run = 0; run < 5; ++run)
    b.runs[metric::latency_ns].push_back(gpu_testing::around(rng, 68700 * (1 + 0.00005 * (run - 2)), 0.0005));
  CaseResult r = gpu_testing::measured_on_gpu(rng, kCopy, 68700 * slower, false, 0.0005);
  r.backend = "vulkan";
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = floor_pct;
  judge_against(r, b, t, gpu_testing::h100("gpu-0"), history);
  return {r, r.judgements.at(0)};
}

TEST(HistoryNoise, ARunOfOtherCodeIsNotNoise) {
  // Seven runs of a host, the third by a build doing twice the work (its own kernel source): the
  // noise is the other six's, not the step to it and back.
  std::vector<HistoryPoint> runs = gated_runs(7, 0.05, 11);
  runs[2].source_hash = "sha256:copy-twice";
  runs[2].medians[metric::latency_ns] *= 2;
  const HistoryNoise noise = history_noise(runs, history_thresholds(), "").at(kCopy);
  EXPECT_EQ(noise.runs, 6);
  EXPECT_LT(noise.bound_pct, 1);
  // The newest run's code is what the series follows: once the other code is all the newer runs
  // hold, it has too few runs to speak.
  for (HistoryPoint& p : runs) p.source_hash = "sha256:copy-old";
  runs.back().source_hash = "sha256:copy-new";
  const auto later = history_noise(runs, history_thresholds(), "");
  EXPECT_TRUE(!later.contains(kCopy) || later.at(kCopy).runs == 0);
}

TEST(HistoryNoise, ItTakesTheFloorsPlace) {
  // A class floor of 2% lets +0.3% through; the machine's own record, 0.02% over 30 runs, does
  // not, and the verdict says where its allowance came from.
  const auto quiet = history_noise(gated_runs(30, 0.02, 8), history_thresholds(), "").at(kCopy);
  EXPECT_EQ(judge_slower(nullptr, 2.0).result.verdict, Verdict::pass);
  const Judged measured = judge_slower(&quiet, 2.0);
  EXPECT_EQ(measured.result.verdict, Verdict::regressed) << measured.result.message;
  EXPECT_NE(measured.latency.reason.find("the history's 30 runs"), std::string::npos) << measured.latency.reason;
}

TEST(HistoryNoise, ANoisierRecordWidensTheAllowance) {
  // The history saw the case move 0.3% one run in five: a check in that mode passes, where the
  // baseline's five quiet runs alone would fail it.
  std::vector<HistoryPoint> points = gated_runs(30, 0.02, 9);
  for (std::size_t i = 2; i < points.size(); i += 5) points[i].medians[metric::latency_ns] *= 1.003;
  const auto record = history_noise(points, history_thresholds(), "").at(kCopy);
  EXPECT_EQ(judge_slower(nullptr, 0.0).result.verdict, Verdict::regressed);
  const Judged judged = judge_slower(&record, 0.0);
  EXPECT_EQ(judged.result.verdict, Verdict::pass) << judged.result.message;
  EXPECT_EQ(judged.latency.threshold_source, "history");
}

TEST(HistoryNoise, TwoModesKeptForRunsAreCovered) {
  // An H200's q4_0_q8_matvec: 1.3% faster in runs 2-5 and 15-16 of 30, each mode repeating to
  // 0.01%. Neighbouring differences see 0.01%; a check in the slow mode against a baseline of
  // the fast one is no regression, and the verdict says why.
  std::vector<HistoryPoint> points = gated_runs(30, 0.01, 11);
  for (int i : {1, 2, 3, 4, 14, 15}) points[i].medians[metric::latency_ns] /= 1.013;
  const auto modes = history_noise(points, history_thresholds(), "").at(kCopy);
  EXPECT_LT(modes.sigma_pct, 0.1);
  EXPECT_NEAR(modes.apart_pct, 1.3, 0.15);
  const Judged judged = judge_slower(&modes, 0.0, 1.013);
  EXPECT_EQ(judged.result.verdict, Verdict::pass) << judged.result.message;
  EXPECT_NE(judged.latency.reason.find("a second mode"), std::string::npos) << judged.latency.reason;
  // One odd run is no mode: a quiet record with one run 1.3% off still catches +1.3%.
  std::vector<HistoryPoint> odd = gated_runs(30, 0.01, 12);
  odd[10].medians[metric::latency_ns] /= 1.013;
  const auto one = history_noise(odd, history_thresholds(), "").at(kCopy);
  std::string why;
  EXPECT_DOUBLE_EQ(history_allowed_pct(one, 4, &why), 4 * one.bound_pct) << why;
  EXPECT_EQ(judge_slower(&one, 0.0, 1.013).result.verdict, Verdict::regressed);
}

}  // namespace
}  // namespace perfgate

namespace perfgate {
namespace {

// A CI lent any GPU of a pool appends each gated run: once its history names three GPUs, a check
// on a GPU the baseline's runs never measured is judged with the spread between them (not only
// named), and says so; with two it is named as before.
CaseResult judged_on_new_gpu(const HistoryNoise* history, double slower) {
  std::mt19937_64 rng(9);
  BaselineCase b;
  b.id = kCopy;
  b.backend = "vulkan";
  b.fingerprint = gpu_testing::h100("gpu-0");
  for (int run = 0; run < 5; ++run) b.runs[metric::latency_ns].push_back(gpu_testing::around(rng, 68700, 0.0005));
  CaseResult r = gpu_testing::measured_on_gpu(rng, kCopy, 68700 * slower, false, 0.0005);
  r.backend = "vulkan";
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 0;
  judge_against(r, b, t, gpu_testing::h100("gpu-new"), history);
  return r;
}

TEST(HistoryNoise, AGpuTheBaselineNeverSawIsJudgedWithTheHistorysGpus) {
  std::vector<HistoryPoint> points;
  const double levels[] = {1.0, 1.003, 0.997};
  for (int g = 0; g < 3; ++g)
    for (auto p : gated_runs(2, 0.01, 20 + g, -1, 0, "gpu-" + std::to_string(g + 1))) {
      p.medians[metric::latency_ns] *= levels[g];
      points.push_back(p);
    }
  const auto three = history_noise(points, history_thresholds(), "gpu-new");
  ASSERT_EQ(three.count(kCopy), 1u);
  const HistoryNoise& h = three.at(kCopy);
  EXPECT_LT(h.runs, kHistoryNoiseRuns);  // no runs of its own: only the GPUs' spread speaks
  ASSERT_TRUE(h.devices);
  EXPECT_EQ(h.devices->devices, 3);
  const CaseResult apart = judged_on_new_gpu(&h, 1.004);
  EXPECT_EQ(apart.verdict, Verdict::inconclusive) << apart.message;  // may be this GPU's level
  EXPECT_EQ(apart.judgements.at(0).level_source, "device spread") << apart.judgements.at(0).reason;
  EXPECT_NE(apart.judgements.at(0).reason.find("devices of the history's runs"), std::string::npos);
  EXPECT_EQ(judged_on_new_gpu(&h, 1.10).verdict, Verdict::regressed);
  // Without the history, or with two GPUs in it: within the default bound of GPUs of a model,
  // named, not failed; past it (2x), failed.
  EXPECT_EQ(judged_on_new_gpu(nullptr, 1.05).verdict, Verdict::inconclusive);
  EXPECT_EQ(judged_on_new_gpu(nullptr, 1.05).judgements.at(0).level_source, "default bound");
  EXPECT_EQ(judged_on_new_gpu(nullptr, 2.0).verdict, Verdict::regressed);
  points.erase(std::remove_if(points.begin(), points.end(),
                              [](const HistoryPoint& p) { return p.device_uuid == "gpu-3"; }),
               points.end());
  const auto two = history_noise(points, history_thresholds(), "gpu-new");
  EXPECT_EQ(two.count(kCopy), 0u);
}

}  // namespace
}  // namespace perfgate

namespace perfgate {
namespace {

// A CI whose every job is a fresh VM of one class (another host each time) appends each gated
// run with its host: once the history names three hosts, a CPU check on a host its baseline never
// measured is judged with the spread between them, and says so.
TEST(HistoryNoise, AHostTheBaselineNeverSawIsJudgedWithTheHistorysHosts) {
  const std::string cpu_case = "copy/cpu/n=33554432";
  std::mt19937_64 rng(41);
  std::vector<HistoryPoint> points;
  const double levels[] = {1.0, 1.05, 0.95};  // VMs of one class 5% apart
  for (int h = 0; h < 3; ++h)
    for (int run = 0; run < 2; ++run) {
      HistoryPoint p;
      p.machine_id = "cpu-amd-epyc-2t";
      p.case_id = cpu_case;
      p.host_id = "vm-" + std::to_string(h);
      p.run_id = p.host_id + "-" + std::to_string(run);
      p.started_at = std::to_string(2000 + 2 * h + run);
      p.source_hash = "sha256:copy";
      p.medians[metric::latency_ns] = 4.2e6 * levels[h];
      points.push_back(p);
    }
  const auto noise = history_noise(points, history_thresholds(), "", "vm-new");
  ASSERT_EQ(noise.count(cpu_case), 1u);
  const HistoryNoise& h = noise.at(cpu_case);
  ASSERT_TRUE(h.devices);
  EXPECT_NE(h.devices->why.find("the 3 hosts of the history's runs"), std::string::npos) << h.devices->why;
  // On a GPU the hosts are not what differs: no spread from them.
  EXPECT_FALSE(history_noise(points, history_thresholds(), "gpu-0", "vm-new").at(cpu_case).devices);

  BaselineCase b;
  b.id = cpu_case;
  b.backend = "cpu";
  b.fingerprint.machine_id = "cpu-amd-epyc-2t";
  b.fingerprint.host_id = "vm-0";
  for (int run = 0; run < 5; ++run) b.runs[metric::latency_ns].push_back(gpu_testing::around(rng, 4.2e6, 0.005));
  Fingerprint here = b.fingerprint;
  here.host_id = "vm-new";
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 0;
  auto judged = [&](double slower, const HistoryNoise* history) {
    CaseResult r = gpu_testing::measured_on_gpu(rng, cpu_case, 4.2e6 * slower, false, 0.005);
    r.backend = "cpu";
    judge_against(r, b, t, here, history);
    return r;
  };
  const CaseResult apart = judged(1.06, &h);
  EXPECT_EQ(apart.verdict, Verdict::inconclusive) << apart.message;  // may be this host's level
  EXPECT_EQ(apart.judgements.at(0).level_source, "device spread");
  EXPECT_NE(apart.message.find("hosts of the class"), std::string::npos) << apart.message;
  EXPECT_EQ(apart.baseline_origin, "another host (vm-0)");
  EXPECT_EQ(judged(2.0, &h).verdict, Verdict::regressed);
  // Without the history: the default bound of hosts of a class, which a 2x slowdown lies past.
  const CaseResult unplaced = judged(2.0, nullptr);
  EXPECT_EQ(unplaced.verdict, Verdict::regressed) << unplaced.message;
  EXPECT_EQ(unplaced.judgements.at(0).level_source, "default bound");
  EXPECT_EQ(judged(1.3, nullptr).verdict, Verdict::inconclusive);  // within 50%: named, not failed
}

}  // namespace
}  // namespace perfgate
