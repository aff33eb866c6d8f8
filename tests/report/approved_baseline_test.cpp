// The HTML report of a run judged against approved baselines draws their samples beside the
// run's, for the cases the baselines still hold as judged.
#include "report/approved_baseline.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "core/atomic_file.h"
#include "report/html_printer.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"
#include "store/baseline_file.h"

namespace perfgate {
namespace {

class ApprovedBaseline : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("perfgate-approved-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

Fingerprint approved_fingerprint() {
  Fingerprint f;
  f.machine_id = "cpu-test-2t";
  f.backend = "cpu";
  return f;
}

BaselineCase approved_stored_case(const std::string& id, double scale) {
  BaselineCase c;
  c.id = id;
  c.kernel = "copy";
  c.backend = "cpu";
  c.fingerprint = approved_fingerprint();
  c.perfgate_version = "0.1.0";
  c.source_hash = "sha256:0123";
  c.measured_at = "2026-11-20T10:00:00Z";
  c.commit = "abc123";
  c.runs["latency_ns"] = {{scale, scale * 1.1, scale * 0.9}, {scale * 1.01, scale * 1.02}};
  c.approval = {"alice", "2026-11-20T11:00:00Z", "first", "def456"};
  return c;
}

CaseResult approved_judged_case(const std::string& id, double baseline_median) {
  CaseResult c;
  c.id = id;
  c.kernel = id.substr(0, id.find('/'));
  c.backend = "cpu";
  c.verdict = Verdict::pass;
  c.metrics["latency_ns"].samples = {10, 11, 12};
  Judgement j;
  j.metric = "latency_ns";
  j.baseline_median = baseline_median;
  j.current_median = 11;
  j.verdict = Verdict::pass;
  c.judgements.push_back(j);
  return c;
}

TEST_F(ApprovedBaseline, DrawnBesideTheRunWhereStillAsJudged) {
  const BaselineStore store(dir_);
  KernelBaselines file{"cpu-test-2t", "copy", {}};
  upsert(file, approved_stored_case("copy/cpu/n=1", 1000));
  upsert(file, approved_stored_case("copy/cpu/n=2", 2000));
  write_file_atomically(store.kernel_file("cpu-test-2t", "copy"), to_yaml(file));
  const double judged_median = median(pooled(file.cases[0].runs.at("latency_ns")));

  RunResult run;
  run.run_id = "r1";
  run.fingerprint = approved_fingerprint();
  run.cases = {approved_judged_case("copy/cpu/n=1", judged_median),
               approved_judged_case("copy/cpu/n=2", 1.0),   // approved again since: left out
               approved_judged_case("copy/cpu/n=3", 5.0)};  // no baseline any more
  const RunResult approved = approved_baseline_run(run, store);
  ASSERT_EQ(approved.cases.size(), 1u);
  EXPECT_EQ(approved.cases[0].id, "copy/cpu/n=1");
  EXPECT_EQ(approved.cases[0].metrics.at("latency_ns").samples.size(), 5u);

  HtmlInputs inputs;
  inputs.baseline = &approved;
  inputs.baseline_from = "the approved baselines in <code>baselines</code>";
  const std::string html = render_html(run, inputs);
  EXPECT_NE(html.find("Baseline samples from the approved baselines in <code>baselines</code>"),
            std::string::npos);
  EXPECT_EQ(html.find("No baseline results given"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
