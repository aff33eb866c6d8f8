#include "report/gbench_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "report/report_fixture.h"
#include "store/gbench_import.h"

namespace perfgate {
namespace {

using nlohmann::json;

std::vector<json> runs_named(const json& doc, const std::string& run_name, const std::string& run_type) {
  std::vector<json> out;
  for (const auto& b : doc["benchmarks"])
    if (b.value("run_name", "") == run_name && b.value("run_type", "") == run_type) out.push_back(b);
  return out;
}

TEST(ReportGbench, ExportHasGoogleBenchmarkShape) {
  const RunResult run = test::mixed_run();
  const json doc = to_gbench_json(run);
  EXPECT_TRUE(is_gbench_json(doc));
  EXPECT_EQ(doc["context"]["num_cpus"], 2);
  EXPECT_EQ(doc["context"]["library_build_type"], "release");
  const auto iterations = runs_named(doc, "copy/cpu/n=1048576", "iteration");
  // 21 samples become the fixed 20 repetitions every case has: the medians of 20 consecutive
  // blocks, in the order measured (one sample each, the last two).
  ASSERT_EQ(iterations.size(), 20u);
  EXPECT_EQ(iterations[3]["name"], "copy/cpu/n=1048576");
  EXPECT_EQ(iterations[3]["time_unit"], "ns");
  EXPECT_EQ(iterations[3]["repetitions"], 20);
  EXPECT_EQ(iterations[3]["repetition_index"], 3);
  const std::vector<double>& samples = run.cases[0].metrics.at("latency_ns").samples;
  ASSERT_EQ(samples.size(), 21u);
  for (std::size_t i = 0; i < 19; ++i)
    EXPECT_DOUBLE_EQ(iterations[i]["real_time"].get<double>(), samples[i]) << i;
  EXPECT_DOUBLE_EQ(iterations[19]["real_time"].get<double>(), (samples[19] + samples[20]) / 2);
  EXPECT_NEAR(iterations[3]["bytes_per_second"].get<double>(),
              8388608 / (iterations[3]["real_time"].get<double>() * 1e-9), 1e-3);

  const auto aggregates = runs_named(doc, "copy/cpu/n=1048576", "aggregate");
  ASSERT_EQ(aggregates.size(), 3u);
  const Summary& s = run.cases[0].metrics.at("latency_ns").summary;
  EXPECT_EQ(aggregates[0]["name"], "copy/cpu/n=1048576_mean");
  EXPECT_DOUBLE_EQ(aggregates[0]["real_time"].get<double>(), s.mean);
  EXPECT_EQ(aggregates[1]["aggregate_name"], "median");
  EXPECT_DOUBLE_EQ(aggregates[1]["real_time"].get<double>(), s.median);
  EXPECT_EQ(aggregates[2]["aggregate_name"], "stddev");
  EXPECT_DOUBLE_EQ(aggregates[2]["real_time"].get<double>(), s.stddev);

  const auto errors = runs_named(doc, "reduce/cpu/n=4096", "iteration");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(errors[0]["error_occurred"].get<bool>());
}

// A calibrated case exports what the gate judged, its relative latency, in the order measured:
// two A/A runs of which a busy machine slowed one by half in raw time read alike, as the gate
// judged them (compare.py once called such runs +50% slower), and the import reads both back.
TEST(ReportGbench, CalibratedCasesExportTheirRelativeLatencyInOrder) {
  auto gbench_calibrated_run = [](double raw_scale) {
    RunResult run = test::mixed_run();
    CaseResult& c = run.cases[0];
    std::vector<double>& raw = c.metrics.at("latency_ns").samples;
    std::vector<double> relative;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      relative.push_back(1.2 - 0.01 * static_cast<double>(i));  // a drift down, in order
      raw[i] = 1000 * raw_scale * relative.back();
    }
    c.metrics["relative_latency"].samples = relative;
    run.cases = {c};
    return run;
  };
  const json quiet = to_gbench_json(gbench_calibrated_run(1.0)),
             busy = to_gbench_json(gbench_calibrated_run(1.5));
  const auto a = runs_named(quiet, "copy/cpu/n=1048576", "iteration"),
             b = runs_named(busy, "copy/cpu/n=1048576", "iteration");
  ASSERT_EQ(a.size(), 20u);
  ASSERT_EQ(b.size(), 20u);
  double log_ratio = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i]["perfgate_metric"], "relative_latency");
    if (i > 0) {
      EXPECT_LT(a[i]["real_time"].get<double>(), a[i - 1]["real_time"].get<double>()) << "not in order";
    }
    EXPECT_NEAR(b[i]["latency_ns"].get<double>(), 1.5 * a[i]["latency_ns"].get<double>(), 1e-6);
    log_ratio += std::log(b[i]["real_time"].get<double>() / a[i]["real_time"].get<double>());
  }
  EXPECT_NEAR(std::exp(log_ratio / 20), 1.0, 1e-9) << "A/A runs must compare as unchanged";
  const RunResult back = run_from_gbench_json(json::parse(quiet.dump()));
  ASSERT_EQ(back.cases.size(), 1u);
  EXPECT_EQ(back.cases[0].metrics.at("relative_latency").samples.size(), 20u);
  EXPECT_NEAR(back.cases[0].metrics.at("latency_ns").summary.median, 1000 * 1.1, 20);
  EXPECT_NEAR(back.cases[0].metrics.at("bandwidth_gbps").summary.median,
              8388608 / (back.cases[0].metrics.at("latency_ns").summary.median), 1);
}

TEST(ReportGbench, RoundTrip) {
  const RunResult run = test::mixed_run();
  const RunResult back = run_from_gbench_json(json::parse(to_gbench_json(run).dump(2)));
  EXPECT_EQ(back.run_id, run.run_id);
  EXPECT_EQ(back.commit, run.commit);
  EXPECT_EQ(back.fingerprint.machine_id, run.fingerprint.machine_id);
  EXPECT_EQ(back.fingerprint.cpu_model, run.fingerprint.cpu_model);
  ASSERT_EQ(back.cases.size(), run.cases.size());
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const CaseResult &a = run.cases[i], &b = back.cases[i];
    SCOPED_TRACE(a.id);
    EXPECT_EQ(b.id, a.id);
    EXPECT_EQ(b.kernel, a.kernel);
    EXPECT_EQ(b.backend, a.backend);
    EXPECT_EQ(b.params.id(), a.params.id());
    if (a.metrics.empty()) {
      EXPECT_EQ(b.verdict, Verdict::error);
      EXPECT_EQ(b.message, a.message);
      continue;
    }
    EXPECT_EQ(b.verdict, Verdict::no_baseline);
    EXPECT_EQ(b.metrics.at("latency_ns").samples.size(), 20u);
    const double median = a.metrics.at("latency_ns").summary.median;
    EXPECT_NEAR(b.metrics.at("latency_ns").summary.median, median, 0.02 * median);
    EXPECT_DOUBLE_EQ(b.cost.bytes(), a.cost.bytes());
    EXPECT_DOUBLE_EQ(b.cost.flops, a.cost.flops);
    const double bandwidth = a.metrics.at("bandwidth_gbps").summary.median;
    EXPECT_NEAR(b.metrics.at("bandwidth_gbps").summary.median, bandwidth, 0.02 * bandwidth);
    EXPECT_EQ(b.metrics.count("gflops"), a.metrics.count("gflops"));
  }
}

}  // namespace
}  // namespace perfgate
