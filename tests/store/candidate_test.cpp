#include "store/candidate.h"

#include <gtest/gtest.h>

#include "judge/candidate_pool.h"
#include "perfgate/error.h"
#include "store_fixture.h"

namespace perfgate {
namespace {

using testing::candidate_of;

TEST(StoreCandidate, ReadBackVerifies) {
  const Candidate written = candidate_of({"copy/cpu/n=1024", "triad/cpu/n=1024"}, 900);
  const Candidate read = parse_candidate(to_yaml(written), "c.yaml");
  EXPECT_NO_THROW(verify_digest(read, "c.yaml"));
  EXPECT_EQ(read.digest, written.digest);
  EXPECT_EQ(read.cases.size(), 2u);
  EXPECT_EQ(read.cases[0].runs.at("latency_ns"), written.cases[0].runs.at("latency_ns"));
  EXPECT_TRUE(read.digest.starts_with("sha256:"));
  EXPECT_EQ(read.digest.size(), 7u + 64u);
}

TEST(StoreCandidate, TheWorkingSetIsReadBackUnderTheDigest) {
  Candidate written = candidate_of({"copy/cpu/n=1024", "copy/cpu/n=33554432"}, 900);
  written.cases[1].fits_in_cache = false;
  written.cases[1].bound = "compute";
  written.digest = content_digest(written);
  const Candidate read = parse_candidate(to_yaml(written), "c.yaml");
  EXPECT_NO_THROW(verify_digest(read, "c.yaml"));
  EXPECT_EQ(read.cases[1].bound, "compute");
  std::string memory = to_yaml(written);
  memory.replace(memory.find("bound: compute"), 14, "bound: memory ");
  EXPECT_THROW(verify_digest(parse_candidate(memory, "c.yaml"), "c.yaml"), Error);  // it chooses a floor
  EXPECT_FALSE(read.cases[0].fits_in_cache.has_value());
  ASSERT_TRUE(read.cases[1].fits_in_cache.has_value());
  EXPECT_FALSE(*read.cases[1].fits_in_cache);
  std::string yaml = to_yaml(written);
  yaml.replace(yaml.find("fits_in_cache: false"), 20, "fits_in_cache: true ");
  EXPECT_THROW(verify_digest(parse_candidate(yaml, "c.yaml"), "c.yaml"), Error);  // an edit voids it
}

TEST(StoreCandidate, TheCalibrationReferenceIsReadBackUnderTheDigest) {
  Candidate written = candidate_of({"copy/cpu/n=1024"}, 900);
  written.cases[0].calibration_reference = "calibration_stream/cpu/n=4096";
  written.digest = content_digest(written);
  const Candidate read = parse_candidate(to_yaml(written), "c.yaml");
  EXPECT_NO_THROW(verify_digest(read, "c.yaml"));
  EXPECT_EQ(read.cases[0].calibration_reference, "calibration_stream/cpu/n=4096");
  std::string yaml = to_yaml(written);
  yaml.replace(yaml.find("n=4096"), 6, "n=8192");
  EXPECT_THROW(verify_digest(parse_candidate(yaml, "c.yaml"), "c.yaml"), Error);  // an edit voids it
}

TEST(StoreCandidate, AnEditedSampleVoidsTheDigest) {
  std::string yaml = to_yaml(candidate_of({"copy/cpu/n=1024"}, 900));
  const std::size_t at = yaml.find("[300");
  ASSERT_NE(at, std::string::npos) << yaml;
  yaml.replace(at, 4, "[200");  // a faster first sample
  const Candidate read = parse_candidate(yaml, "c.yaml");
  try {
    verify_digest(read, "c.yaml");
    FAIL() << "an edited candidate verified";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("c.yaml"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("digest"), std::string::npos);
  }
}

TEST(StoreCandidate, AnEditedMachineOrDigestIsRefused) {
  const std::string yaml = to_yaml(candidate_of({"copy/cpu/n=1024"}, 900));
  std::string other = yaml;
  for (std::size_t at; (at = other.find("cpu-test-2t")) != std::string::npos;)
    other.replace(at, 11, "cpu-else-2t");
  EXPECT_THROW(verify_digest(parse_candidate(other, "c.yaml"), "c.yaml"), Error);

  std::string digest = yaml;
  digest.replace(digest.find("digest: sha256:") + 15, 1,
                 digest[digest.find("digest: sha256:") + 15] == '0' ? "1" : "0");
  EXPECT_THROW(verify_digest(parse_candidate(digest, "c.yaml"), "c.yaml"), Error);
}

TEST(StoreCandidate, TruncatedCandidateIsAnErrorNamingTheFile) {
  const std::string yaml = to_yaml(candidate_of({"copy/cpu/n=1024"}, 900));
  for (std::size_t cut : {yaml.size() / 2, yaml.size() - 3, yaml.rfind("digest:")}) {
    try {
      const Candidate c = parse_candidate(yaml.substr(0, cut), "cut.yaml");
      verify_digest(c, "cut.yaml");
      ADD_FAILURE() << "cut at " << cut << " accepted";
    } catch (const Error& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with("cut.yaml")) << e.what();
    }
  }
}

RunResult measured_run(const std::string& run_id, double latency_ns) {
  RunResult run;
  run.run_id = run_id;
  run.started_at = "2026-11-21T08:59:00Z";
  run.commit = "fedcba";
  run.perfgate_version = "0.1.0";
  run.fingerprint = testing::test_fingerprint();
  CaseResult c;
  c.id = "copy/cpu/n=1024";
  c.kernel = "copy";
  c.backend = "cpu";
  c.source_hash = "sha256:1";
  c.verdict = Verdict::no_baseline;
  c.metrics["latency_ns"].samples = {latency_ns, latency_ns + 1};
  run.cases.push_back(c);
  return run;
}

TEST(StoreCandidatePool, PoolsSeparateRunsPerMetric) {
  const Candidate c = candidate_from_runs(
      {measured_run("a", 100), measured_run("b", 110), measured_run("c", 90)}, "2026-11-21T09:00:00Z");
  ASSERT_EQ(c.cases.size(), 1u);
  EXPECT_EQ(c.run_ids, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c.cases[0].runs.at("latency_ns"),
            (std::vector<std::vector<double>>{{100, 101}, {110, 111}, {90, 91}}));
  EXPECT_EQ(c.machine_id(), "cpu-test-2t");
}

// What a case's threads waited for a core in its runs is kept as their median (a check's waiting
// beyond it is what a busy machine added), under the digest.
TEST(StoreCandidatePool, KeepsTheRunsMedianWaitForCores) {
  std::vector<RunResult> runs{measured_run("a", 100), measured_run("b", 110), measured_run("c", 90)};
  runs[0].cases[0].cpu_wait_share = 0.30;
  runs[1].cases[0].cpu_wait_share = 0.05;
  runs[2].cases[0].cpu_wait_share = 0.06;
  Candidate c = candidate_from_runs(runs, "2026-11-21T09:00:00Z");
  ASSERT_EQ(c.cases.size(), 1u);
  EXPECT_DOUBLE_EQ(c.cases[0].cpu_wait_share, 0.06);
  c.digest = content_digest(c);
  const Candidate read = parse_candidate(to_yaml(c), "c.yaml");
  EXPECT_NO_THROW(verify_digest(read, "c.yaml"));
  EXPECT_DOUBLE_EQ(read.cases[0].cpu_wait_share, 0.06);
  std::string yaml = to_yaml(c);
  yaml.replace(yaml.find("cpu_wait_share: 0.06"), 20, "cpu_wait_share: 0.60");
  EXPECT_THROW(verify_digest(parse_candidate(yaml, "c.yaml"), "c.yaml"), Error);  // it widens allowances
}

TEST(StoreCandidatePool, RefusesErrorsSkipsAndMixedMachines) {
  RunResult wrong = measured_run("b", 110);
  wrong.cases[0].verdict = Verdict::error;
  wrong.cases[0].message = "output differs from the reference";
  try {
    candidate_from_runs({measured_run("a", 100), wrong}, "now");
    FAIL() << "a run with an error was pooled";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("output differs"), std::string::npos) << e.what();
  }
  RunResult skipped = measured_run("b", 110);
  skipped.cases[0].verdict = Verdict::skipped;
  skipped.cases[0].message = "no Vulkan device";
  try {
    candidate_from_runs({skipped}, "now");
    FAIL() << "a run with nothing measured was pooled";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("can run none of the selected cases:\n  copy/cpu/n=1024: no Vulkan device"),
              std::string::npos)
        << e.what();
  }
  RunResult foreign = measured_run("b", 110);
  foreign.fingerprint.machine_id = "llvmpipe";
  EXPECT_THROW(candidate_from_runs({measured_run("a", 100), foreign}, "now"), Error);
}

// A case the device cannot run in any run is left out of the candidate, which holds the rest;
// one skipped in some runs only is refused, naming it.
TEST(StoreCandidatePool, LeavesOutCasesSkippedInEveryRun) {
  auto with_skipped = [](const std::string& id, double latency_ns, bool skip) {
    RunResult run = measured_run(id, latency_ns);
    CaseResult c = run.cases[0];
    c.id = "tensor_peak_workgroup/vulkan/groups=8";
    c.metrics.clear();
    c.verdict = skip ? Verdict::skipped : Verdict::no_baseline;
    c.message = "device lacks feature cooperativeMatrixWorkgroupScope";
    if (!skip) c.metrics["latency_ns"].samples = {5, 6};
    run.cases.push_back(c);
    return run;
  };
  const Candidate c = candidate_from_runs({with_skipped("a", 100, true), with_skipped("b", 110, true)}, "now");
  ASSERT_EQ(c.cases.size(), 1u);
  EXPECT_EQ(c.cases[0].id, "copy/cpu/n=1024");
  EXPECT_EQ(skipped_cases(with_skipped("a", 100, true)),
            "\n  tensor_peak_workgroup/vulkan/groups=8: device lacks feature cooperativeMatrixWorkgroupScope");
  for (bool skipped_first : {true, false}) {
    try {
      candidate_from_runs({with_skipped("a", 100, skipped_first), with_skipped("b", 110, !skipped_first)}, "now");
      FAIL() << "a case skipped in one run only was pooled";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("tensor_peak_workgroup/vulkan/groups=8 was "), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(skipped_first ? "skipped in run 1 and measured in run 2"
                                                         : "measured in run 1 and skipped in run 2"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(StoreCandidatePool, KeepsTheCalibrationReferenceAndRefusesTwo) {
  RunResult first = measured_run("a", 100);
  first.cases[0].calibration_reference = "calibration_stream/cpu/n=1024";
  RunResult second = measured_run("b", 110);
  second.cases[0].calibration_reference = "calibration_stream/cpu/n=1024";
  EXPECT_EQ(candidate_from_runs({first, second}, "now").cases[0].calibration_reference,
            "calibration_stream/cpu/n=1024");
  second.cases[0].calibration_reference = "calibration_fma/cpu/n=65536,iters=512";
  try {
    candidate_from_runs({first, second}, "now");
    FAIL() << "runs against two references were pooled";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("calibrated against calibration_stream/cpu/n=1024 in run 1 and "
                                         "calibration_fma/cpu/n=65536,iters=512 in run 2"),
              std::string::npos)
        << e.what();
  }
}

// A case near the ridge lands on either side of it: one run bound by compute or latency is
// what the candidate keeps (its floor is the wider one, compute_min_allowed_pct).
TEST(StoreCandidatePool, OneRunBoundByComputeOrLatencyIsKept) {
  std::vector<RunResult> runs{measured_run("a", 100), measured_run("b", 110), measured_run("c", 90)};
  runs[0].cases[0].bound = "memory";
  runs[1].cases[0].bound = "latency";
  runs[2].cases[0].bound = "memory";
  EXPECT_EQ(candidate_from_runs(runs, "now").cases[0].bound, "latency");
  runs[1].cases[0].bound = "memory";
  EXPECT_EQ(candidate_from_runs(runs, "now").cases[0].bound, "memory");
}

}  // namespace
}  // namespace perfgate
