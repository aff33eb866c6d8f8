#include "judge/candidate_merge.h"

#include <gtest/gtest.h>

#include "judge/verdict.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "store/store_fixture.h"

namespace perfgate {
namespace {

using testing::candidate_of;

// Two proposals of the same cases on one machine, the second in a period 12% slower.
std::vector<NamedCandidate> two_periods() {
  Candidate quiet = candidate_of({"copy/cpu/n=1024", "triad/cpu/n=1024"}, 900);
  Candidate later = candidate_of({"copy/cpu/n=1024", "triad/cpu/n=1024"}, 1008);
  later.measured_at = "2026-11-21T07:00:00Z";
  later.run_ids = {"r3", "r4"};
  later.created_at = "2026-11-21T10:00:00Z";
  return {{"a.yaml", quiet}, {"b.yaml", later}};
}

std::string refusal(const std::vector<NamedCandidate>& parts) {
  try {
    merge_candidates(parts);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(StoreCandidateMerge, PoolsEveryRunOfEveryPartInOrder) {
  const auto parts = two_periods();
  const Candidate merged = merge_candidates(parts);
  EXPECT_EQ(merged.run_ids, (std::vector<std::string>{"r1", "r2", "r3", "r4"}));
  EXPECT_EQ(merged.measured_at, "2026-11-21T07:00:00Z");  // the earliest
  EXPECT_EQ(merged.created_at, "2026-11-21T09:00:00Z");  // the oldest part's: its age stays
  EXPECT_EQ(merged.machine_id(), "cpu-test-2t");
  ASSERT_EQ(merged.cases.size(), 2u);
  const auto& runs = merged.cases[0].runs.at(metric::latency_ns);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0], parts[0].candidate.cases[0].runs.at(metric::latency_ns)[0]);
  EXPECT_EQ(runs[3], parts[1].candidate.cases[0].runs.at(metric::latency_ns)[1]);
  EXPECT_TRUE(merged.digest.empty());  // computed by whoever writes it
}

// The point of merging: the noise a check is judged against now spans both periods.
TEST(StoreCandidateMerge, TheNoiseSpansBothPeriods) {
  const auto parts = two_periods();
  const Candidate merged = merge_candidates(parts);
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 1;
  const auto alone = latency_noise(parts[0].candidate.cases[0].runs, t);
  const auto pooled = latency_noise(merged.cases[0].runs, t);
  ASSERT_TRUE(alone && pooled);
  EXPECT_GT(pooled->noise.range_pct, 10) << pooled->noise.why;
  EXPECT_LT(alone->noise.range_pct, 5) << alone->noise.why;
  EXPECT_GT(pooled->noise.sigma_pct, alone->noise.sigma_pct);
}

TEST(StoreCandidateMerge, AnyPartBoundByComputeOrLatencyKeepsTheWiderFloor) {
  auto parts = two_periods();
  parts[0].candidate.cases[1].bound = "memory";
  parts[1].candidate.cases[1].bound = "latency";
  EXPECT_EQ(merge_candidates(parts).cases[1].bound, "latency");
}

TEST(StoreCandidateMerge, TheWaitingShareIsWeightedByRuns) {
  auto parts = two_periods();
  parts[0].candidate.cases[0].cpu_wait_share = 0.1;
  parts[1].candidate.run_ids = {"r3", "r4", "r5", "r6"};
  parts[1].candidate.cases[0].cpu_wait_share = 0.4;
  EXPECT_DOUBLE_EQ(merge_candidates(parts).cases[0].cpu_wait_share, 0.3);
}

// The merged candidate names one perfgate version: parts measured by two are refused, naming both.
TEST(StoreCandidateMerge, RefusesPartsOfDifferentPerfgateVersions) {
  auto parts = two_periods();
  parts[0].candidate.perfgate_version = "0.1.0";
  parts[1].candidate.perfgate_version = "0.2.0";
  const std::string why = refusal(parts);
  EXPECT_NE(why.find("different perfgate versions (0.1.0 vs 0.2.0)"), std::string::npos) << why;
  parts[1].candidate.perfgate_version = "0.1.0";
  EXPECT_EQ(refusal(parts), "");
}

TEST(StoreCandidateMerge, RefusesWhatIsNotOneMachinesSameCode) {
  auto parts = two_periods();
  EXPECT_NE(refusal({parts[0]}).find("two or more"), std::string::npos);

  auto other_machine = two_periods();
  other_machine[1].candidate.fingerprint.machine_id = "cpu-other-2t";
  EXPECT_NE(refusal(other_machine).find("machine_id: cpu-test-2t vs cpu-other-2t"), std::string::npos)
      << refusal(other_machine);

  auto other_build = two_periods();
  other_build[1].candidate.fingerprint.build_flags = "-O0";
  EXPECT_NE(refusal(other_build).find("build_flags"), std::string::npos) << refusal(other_build);

  auto changed = two_periods();
  changed[1].candidate.cases[1].source_hash = "sha256:9999";
  EXPECT_NE(refusal(changed).find("the source of triad/cpu/n=1024 changed"), std::string::npos)
      << refusal(changed);

  auto fewer = two_periods();
  fewer[1].candidate.cases.pop_back();
  EXPECT_NE(refusal(fewer).find("2 and 1 cases"), std::string::npos) << refusal(fewer);

  auto other_case = two_periods();
  other_case[1].candidate.cases[1].id = "triad/cpu/n=2048";
  EXPECT_NE(refusal(other_case).find("triad/cpu/n=1024 is missing from b.yaml"), std::string::npos)
      << refusal(other_case);

  auto recalibrated = two_periods();
  recalibrated[1].candidate.cases[0].calibration_reference = "calibration_stream/cpu/n=4096";
  EXPECT_NE(refusal(recalibrated).find("calibrated against different references"), std::string::npos);

  auto resident = two_periods();
  resident[1].candidate.cases[0].fits_in_cache = false;
  EXPECT_NE(refusal(resident).find("unknown in one and not in cache in the other"), std::string::npos)
      << refusal(resident);
}

// One run counted twice narrows the allowance: one candidate given twice, or one run in two parts.
TEST(StoreCandidateMerge, RefusesARunGivenTwice) {
  auto twice = two_periods();
  twice[1] = twice[0];
  EXPECT_NE(refusal(twice).find("run r1 is in both a.yaml and a.yaml (twice)"), std::string::npos) << refusal(twice);
  auto shared = two_periods();
  shared[1].candidate.run_ids = {"r3", "r2"};
  EXPECT_NE(refusal(shared).find("run r2 is in both a.yaml and b.yaml"), std::string::npos) << refusal(shared);
}

}  // namespace
}  // namespace perfgate
