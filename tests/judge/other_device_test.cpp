// A case checked on another device or host than the one its baseline's runs measured keeps its
// own allowance, and a change within how far devices or hosts of its class differ is named and
// left inconclusive rather than called a regression or a pass: no run has measured how the two
// differ (judge/device_level.h). On the baseline's own device and host the same change regresses.
// Seeded synthetic samples.
#include <gtest/gtest.h>

#include <random>

#include "judge/gpu_judge_fixture.h"
#include "judge/judge_case.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

Thresholds measured_only() {
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 0;
  return t;
}

BaselineCase layernorm_baseline(std::mt19937_64& rng, const std::string& uuid, const std::string& host = "a1") {
  BaselineCase b;
  b.periods = 2;  // a merge of two proposals: its moves between periods measured
  b.id = "layernorm/vulkan/rows=1024,cols=4096,wg=256";
  b.fingerprint.machine_id = "nvidia-h200";
  b.fingerprint.device_uuid = uuid;
  b.fingerprint.host_id = host;
  for (int r = 0; r < 5; ++r) b.runs[metric::latency_ns].push_back(gpu_testing::around(rng, 10000, 0.002));
  return b;
}

Fingerprint gpu(const std::string& uuid, const std::string& host = "a1") {
  Fingerprint f = gpu_testing::h100(uuid);
  f.machine_id = "nvidia-h200";
  f.host_id = host;
  return f;
}

CaseResult layernorm_measured(std::mt19937_64& rng, double latency) {
  return gpu_testing::measured_on_gpu(rng, "layernorm/vulkan/rows=1024,cols=4096,wg=256", latency, true, 0.002);
}

TEST(OtherDevice, AShiftOnAnotherGpuIsNamedNotFailed) {
  std::mt19937_64 rng(11);
  CaseResult r = layernorm_measured(rng, 10400);  // +4%: what another GPU of a model can show
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), measured_only(), gpu("ebf3a9ee66184672"));
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
  ASSERT_EQ(r.judgements.size(), 1u);
  EXPECT_EQ(r.judgements[0].threshold_source, "another device");
  EXPECT_LT(r.judgements[0].threshold_pct, 1.0) << "the allowance stays the runs' own";
  EXPECT_NE(r.judgements[0].reason.find("another device (2614b971...) of nvidia-h200"), std::string::npos)
      << r.judgements[0].reason;
}

TEST(OtherDevice, TheSameShiftOnTheBaselinesGpuRegresses) {
  std::mt19937_64 rng(12);
  CaseResult r = layernorm_measured(rng, 10400);
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), measured_only(), gpu("2614b9718d0afb6f"));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  EXPECT_EQ(r.judgements[0].threshold_source, "noise");
}

TEST(OtherDevice, AChangeWithinItsOwnAllowanceIsNamedWhereNothingPlacedTheDevice) {
  std::mt19937_64 rng(13);
  CaseResult r = layernorm_measured(rng, 10005);
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), measured_only(), gpu("ebf3a9ee66184672"));
  // Within its allowance here, but this GPU's own level may lie anywhere in what GPUs of the
  // model differ by: no pass claims more than was measured.
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
  EXPECT_TRUE(r.judgements.at(0).named);
}

TEST(OtherHost, AHostChangeIsNamed) {
  std::mt19937_64 rng(14);
  CaseResult moved = layernorm_measured(rng, 10400);
  judge_against(moved, layernorm_baseline(rng, "", "a1"), measured_only(), gpu("", "b2"));
  EXPECT_EQ(moved.verdict, Verdict::inconclusive) << moved.message;
  EXPECT_EQ(moved.judgements.at(0).threshold_source, "another host");
  EXPECT_NE(moved.judgements[0].reason.find("another host (a1)"), std::string::npos) << moved.judgements[0].reason;
  CaseResult unnamed = layernorm_measured(rng, 10400);
  judge_against(unnamed, layernorm_baseline(rng, "", ""), measured_only(), gpu("", "b2"));
  EXPECT_EQ(unnamed.judgements.at(0).threshold_source, "another host");
  EXPECT_NE(unnamed.judgements[0].reason.find("a host it does not name"), std::string::npos)
      << unnamed.judgements[0].reason;
  EXPECT_EQ(unnamed.baseline_origin, "a host it does not name");
  EXPECT_EQ(moved.baseline_origin, "another host (a1)");
  CaseResult home = layernorm_measured(rng, 10400);
  judge_against(home, layernorm_baseline(rng, "", "b2"), measured_only(), gpu("", "b2"));
  EXPECT_EQ(home.verdict, Verdict::regressed) << home.message;
  EXPECT_EQ(home.baseline_origin, "");
}

}  // namespace
}  // namespace perfgate
