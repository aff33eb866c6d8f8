// A cache-resident case judged against a baseline measured on another device of the same machine
// id gets other_device_min_pct as its least allowance (GPUs of one model differ by a few percent
// there); on the baseline's own device, or for a DRAM-sized case where other_device_dram_min_pct
// is not set, the allowance is its own.
// Seeded synthetic samples.
#include <gtest/gtest.h>

#include <random>

#include "judge/gpu_judge_fixture.h"
#include "judge/judge_case.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

Thresholds other_device_thresholds() {
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 2;
  t.other_device_min_pct = 6;
  return t;
}

BaselineCase layernorm_baseline(std::mt19937_64& rng, const std::string& uuid) {
  BaselineCase b;
  b.id = "layernorm/vulkan/rows=1024,cols=4096,wg=256";
  b.fingerprint.machine_id = "nvidia-h100-80gb-hbm3";
  b.fingerprint.device_uuid = uuid;
  for (int r = 0; r < 5; ++r) b.runs[metric::latency_ns].push_back(gpu_testing::around(rng, 10000, 0.002));
  return b;
}

Fingerprint gpu(const std::string& uuid) { return gpu_testing::h100(uuid); }

CaseResult layernorm_measured(std::mt19937_64& rng, double latency, bool in_cache) {
  return gpu_testing::measured_on_gpu(rng, "layernorm/vulkan/rows=1024,cols=4096,wg=256", latency, in_cache,
                                      0.002);
}

TEST(OtherDevice, ACacheResidentShiftOnAnotherGpuPasses) {
  std::mt19937_64 rng(11);
  CaseResult r = layernorm_measured(rng, 10400, true);  // +4%: what another GPU of the model showed
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), other_device_thresholds(), gpu("ebf3a9ee66184672"));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  ASSERT_EQ(r.judgements.size(), 1u);
  EXPECT_DOUBLE_EQ(r.judgements[0].threshold_pct, 6);
  EXPECT_EQ(r.judgements[0].threshold_source, "other device");
  EXPECT_NE(r.judgements[0].reason.find("another device (2614b971...) of nvidia-h100-80gb-hbm3"),
            std::string::npos)
      << r.judgements[0].reason;
}

TEST(OtherDevice, TheSameShiftOnTheBaselinesGpuRegresses) {
  std::mt19937_64 rng(12);
  CaseResult r = layernorm_measured(rng, 10400, true);
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), other_device_thresholds(), gpu("2614b9718d0afb6f"));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  EXPECT_EQ(r.judgements[0].threshold_source, "floor");
}

TEST(OtherDevice, ADramSizedCaseKeepsItsOwnAllowance) {
  std::mt19937_64 rng(13);
  CaseResult r = layernorm_measured(rng, 10300, false);  // +3% on a DRAM-bound case: between GPUs they moved 0.1%
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), other_device_thresholds(), gpu("ebf3a9ee66184672"));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  EXPECT_DOUBLE_EQ(r.judgements[0].threshold_pct, 2);
}

TEST(OtherDevice, ALargeRegressionOnAnotherGpuStillFails) {
  std::mt19937_64 rng(14);
  CaseResult r = layernorm_measured(rng, 10800, true);  // +8%
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), other_device_thresholds(), gpu("ebf3a9ee66184672"));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
}

TEST(OtherDevice, UnknownDevicesAndAZeroSettingLeaveTheAllowanceAlone) {
  std::mt19937_64 rng(15);
  CaseResult unknown = layernorm_measured(rng, 10400, true);
  judge_against(unknown, layernorm_baseline(rng, ""), other_device_thresholds(), gpu("ebf3a9ee66184672"));
  EXPECT_EQ(unknown.verdict, Verdict::regressed) << "a baseline without a device id is not 'another device'";
  Thresholds off = other_device_thresholds();
  off.other_device_min_pct = 0;
  CaseResult r = layernorm_measured(rng, 10400, true);
  judge_against(r, layernorm_baseline(rng, "2614b9718d0afb6f"), off, gpu("ebf3a9ee66184672"));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
}

}  // namespace
}  // namespace perfgate
