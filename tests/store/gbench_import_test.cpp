#include "store/gbench_import.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "perfgate/error.h"

namespace perfgate {
namespace {

using nlohmann::json;

// What `--benchmark_out_format=json` of a user's benchmark writes (library 1.7).
constexpr const char* kUserOutput = R"({
  "context": {"date": "2024-05-01T12:00:00+00:00", "host_name": "ci-runner-7", "executable": "./bench",
              "num_cpus": 8, "mhz_per_cpu": 3000, "cpu_scaling_enabled": false, "caches": [],
              "library_build_type": "release"},
  "benchmarks": [
    {"name": "BM_memcpy/4096/real_time", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "BM_memcpy/4096/real_time", "run_type": "iteration", "repetitions": 3, "repetition_index": 0,
     "threads": 1, "iterations": 100000, "real_time": 0.25, "cpu_time": 0.25, "time_unit": "us",
     "bytes_per_second": 16384000000.0},
    {"name": "BM_memcpy/4096/real_time", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "BM_memcpy/4096/real_time", "run_type": "iteration", "repetitions": 3, "repetition_index": 1,
     "threads": 1, "iterations": 100000, "real_time": 0.256, "cpu_time": 0.256, "time_unit": "us",
     "bytes_per_second": 16000000000.0},
    {"name": "BM_memcpy/4096/real_time", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "BM_memcpy/4096/real_time", "run_type": "iteration", "repetitions": 3, "repetition_index": 2,
     "threads": 1, "iterations": 100000, "real_time": 0.2, "cpu_time": 0.2, "time_unit": "us",
     "bytes_per_second": 20480000000.0},
    {"name": "BM_memcpy/4096/real_time_mean", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "BM_memcpy/4096/real_time", "run_type": "aggregate", "repetitions": 3, "threads": 1,
     "aggregate_name": "mean", "aggregate_unit": "time", "iterations": 3, "real_time": 0.235, "cpu_time": 0.235,
     "time_unit": "us"},
    {"name": "BM_sgemm/m:64/k:128", "family_index": 1, "per_family_instance_index": 0,
     "run_name": "BM_sgemm/m:64/k:128", "run_type": "aggregate", "repetitions": 5, "threads": 1,
     "aggregate_name": "median", "aggregate_unit": "time", "iterations": 5, "real_time": 2.5, "cpu_time": 2.5,
     "time_unit": "ms", "FLOPS": 6553600.0},
    {"name": "BM_broken", "family_index": 2, "per_family_instance_index": 0, "run_name": "BM_broken",
     "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 0,
     "real_time": 0, "cpu_time": 0, "time_unit": "ns", "error_occurred": true, "error_message": "device lost"}
  ]
})";

TEST(StoreGbenchImport, ImportsAUsersBenchmarks) {
  const json doc = json::parse(kUserOutput);
  ASSERT_TRUE(is_gbench_json(doc));
  const RunResult run = run_from_gbench_json(doc);
  EXPECT_EQ(run.fingerprint.machine_id, "cpu-ci-runner-7-8t");  // the thresholds' cpu-* rules apply
  EXPECT_EQ(run.fingerprint.cpu_threads, 8);
  EXPECT_EQ(run.started_at, "2024-05-01T12:00:00+00:00");
  EXPECT_EQ(run.run_id, run_from_gbench_json(doc).run_id);  // stable: history keeps one entry
  ASSERT_EQ(run.cases.size(), 3u);

  const CaseResult& memcpy_case = run.cases[0];
  EXPECT_EQ(memcpy_case.id, "BM_memcpy/4096/real_time");
  EXPECT_EQ(memcpy_case.kernel, "BM_memcpy");
  EXPECT_EQ(memcpy_case.backend, "cpu");
  EXPECT_EQ(memcpy_case.params.id(), "arg0=4096");
  EXPECT_EQ(memcpy_case.verdict, Verdict::no_baseline);
  const std::vector<double> expected_ns{250, 256, 200};
  EXPECT_EQ(memcpy_case.metrics.at("latency_ns").samples, expected_ns);
  EXPECT_DOUBLE_EQ(memcpy_case.cost.bytes(), 4096);
  EXPECT_DOUBLE_EQ(memcpy_case.metrics.at("bandwidth_gbps").summary.median, 4096 / 250.0);

  const CaseResult& sgemm = run.cases[1];  // aggregates only: the median is the one sample
  EXPECT_EQ(sgemm.params.id(), "m=64,k=128");
  EXPECT_EQ(sgemm.metrics.at("latency_ns").samples, std::vector<double>{2.5e6});
  EXPECT_DOUBLE_EQ(sgemm.cost.flops, 16384);
  EXPECT_EQ(sgemm.metrics.count("bandwidth_gbps"), 0u);

  EXPECT_EQ(run.cases[2].verdict, Verdict::error);
  EXPECT_EQ(run.cases[2].message, "device lost");
}

TEST(StoreGbenchImport, TellsTheFormatsApart) {
  EXPECT_FALSE(is_gbench_json(json::parse(R"({"schema": 1, "cases": [], "benchmarks": []})")));
  EXPECT_FALSE(is_gbench_json(json::parse(R"({"context": {}})")));
  EXPECT_FALSE(is_gbench_json(json::array()));
  EXPECT_TRUE(is_gbench_json(json::parse(R"({"benchmarks": []})")));
  EXPECT_THROW(run_from_gbench_json(json::parse(R"({"schema": 1})")), Error);
  EXPECT_THROW(run_from_gbench_json(json::parse(
                   R"({"benchmarks": [{"name": "x", "real_time": 1, "time_unit": "fortnights"}]})")),
               Error);
}

// A real libbenchmark run (tests/gbench/rate_counters.cpp): rate counters are per CPU second
// unless the benchmark used real time, so bytes per iteration come from the matching time. A
// benchmark that waits uses far less CPU time than real time: read per real second, its bytes
// per iteration would come out many times too large.
TEST(StoreGbenchImport, RateCountersOfARealRunGiveTheBytesPerIteration) {
  const std::string command =
      std::string(PERFGATE_GBENCH_RATES) + " --benchmark_format=json --benchmark_min_time=0.01 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  ASSERT_EQ(::pclose(pipe), 0) << output;
  const RunResult run = run_from_gbench_json(json::parse(output));
  std::map<std::string, double> bytes;
  for (const auto& c : run.cases) bytes[c.id] = c.cost.bytes();
  ASSERT_EQ(bytes.size(), 3u) << output;
  EXPECT_EQ(bytes["BM_memcpy/4096"], 4096);
  EXPECT_EQ(bytes["BM_wait/iterations:20"], 1e6);
  EXPECT_EQ(bytes["BM_wait/iterations:20/real_time"], 1e6);
}

}  // namespace
}  // namespace perfgate
