#include "report/history_changes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "judge/history_gate.h"
#include "report/html_plots.h"
#include "report/report_fixture.h"

namespace perfgate {
namespace {

// The history of the fixture's copy case: 40 runs, 12% slower from run 30 on; where
// `moved_at_step`, runs 30 on were measured on another host.
std::vector<CaseHistory> judged(const RunResult& run, bool moved_at_step = false) {
  std::mt19937_64 random(3);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<HistoryPoint> points;
  for (int i = 0; i < 40; ++i) {
    HistoryPoint p;
    p.machine_id = run.fingerprint.machine_id;
    p.case_id = run.cases[0].id;
    p.run_id = "run-" + std::to_string(i);
    p.commit = "commit" + std::to_string(i);
    p.started_at = "2026-11-25T" + std::to_string(10 + i / 60) + ":" + std::to_string(10 + i % 40) + ":00Z";
    p.medians["latency_ns"] = 800000 * (i >= 30 ? 1.12 : 1.0) * std::exp(noise(random));
    p.host_id = moved_at_step && i >= 30 ? "host-2" : "host-1";
    points.push_back(p);
  }
  return analyse_history(points, ThresholdSet::from_yaml_text("defaults: {}\n", "t.yaml"), nullptr, {});
}

TEST(HistoryChanges, TableJsonAndMarkdownNameTheChangePoint) {
  const RunResult run = test::mixed_run();
  const auto histories = judged(run);
  ASSERT_EQ(histories.size(), 1u);
  ASSERT_EQ(histories[0].changes.size(), 1u);
  const std::string id = histories[0].changes[0].id;
  const std::string table = render_changes_table(histories);
  EXPECT_NE(table.find(id), std::string::npos) << table;
  EXPECT_NE(table.find("commit29..commit30"), std::string::npos) << table;
  EXPECT_NE(table.find("OPEN"), std::string::npos) << table;
  EXPECT_NE(table.find("DRIFT"), std::string::npos) << table;  // +12% past the 10% allowed
  const auto doc = changes_json(histories);
  EXPECT_EQ(doc["cases"][0]["changes"][0]["run_index"], 30);
  EXPECT_TRUE(doc["cases"][0]["drift"]["exceeded"].get<bool>());
  const std::string markdown = render_history_markdown(histories);
  EXPECT_EQ(markdown.rfind("## History", 0), 0u);
  EXPECT_NE(markdown.find(id), std::string::npos);
  EXPECT_EQ(render_history_markdown({}), "");
}

TEST(HistoryChanges, AStepWhereTheRunsMovedIsNamedNotGatedAndSaysWhy) {
  const auto histories = judged(test::mixed_run(), true);
  ASSERT_EQ(histories[0].changes.size(), 1u);
  const std::string table = render_changes_table(histories);
  EXPECT_NE(table.find("regression (another host)"), std::string::npos) << table;
  EXPECT_NE(table.find("not gated: runs on another host after it, and the runs before it name 1 host"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("OPEN"), std::string::npos) << table;
  EXPECT_NE(table.find("drift not gated"), std::string::npos) << table;
  const auto doc = changes_json(histories);
  EXPECT_EQ(doc["cases"][0]["changes"][0]["moved"], "host");
  const HistoryGateVerdict gate = judge_history_gate(histories, "perfgate history ack");
  EXPECT_TRUE(gate.passes());
  EXPECT_NE(gate.lines.back().find("2 across devices or hosts not gated"), std::string::npos)
      << gate.lines.back();
}

TEST(HistoryChanges, TheTrendPlotMarksSegmentsAndChangePoints) {
  const RunResult run = test::mixed_run();
  const auto histories = judged(run);
  const std::string html = html::history_section(run, {}, histories);
  EXPECT_NE(html.find("segment medians"), std::string::npos);
  EXPECT_NE(html.find(histories[0].changes[0].id), std::string::npos);
  EXPECT_NE(html.find("1 change point"), std::string::npos);
}

// A change point bisected (BISECTED.log): the table, the JSON and the HTML trend name the commit.
TEST(HistoryChanges, ABisectedChangePointNamesItsCommit) {
  const RunResult run = test::mixed_run();
  auto histories = judged(run);
  ASSERT_EQ(histories[0].changes.size(), 1u);
  const std::string id = histories[0].changes[0].id;
  attach_bisections(
      histories, {{id, {id, {{"0123456789abcdef", "copy: one more pass", 11.8, 10.9, 12.7, true}}, 6, ""}}});
  const std::string table = render_changes_table(histories);
  EXPECT_NE(table.find("bisected to 0123456789 (+11.8%)"), std::string::npos) << table;
  const auto dumped = changes_json(histories).dump();
  EXPECT_NE(dumped.find("\"bisected_to\""), std::string::npos) << dumped;
  EXPECT_NE(dumped.find("copy: one more pass"), std::string::npos) << dumped;
  const std::string html = html::history_section(run, {}, histories);
  EXPECT_NE(html.find("bisected to 0123456789"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
