// The HTML report's plots: a history's x axis names each run apart; a step the gate does not
// fail is drawn as one.
#include "report/html_plots.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "judge/history_analysis.h"

namespace perfgate {
namespace {

TEST(HtmlHistoryLabels, RunsOfOneMinuteAreToldApart) {
  const std::vector<std::string> labels =
      html::history_labels({"2026-11-28T15:39:58Z", "2026-11-28T15:40:07Z", "2026-11-28T15:40:41Z",
                            "2026-11-28T15:41:00Z", "2026-11-28T15:41:00Z"});
  EXPECT_EQ(labels, (std::vector<std::string>{"11-28 15:39", "11-28 15:40:07", "11-28 15:40:41",
                                              "11-28 15:41:00", "11-28 15:41:00 #2"}));
  EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());
}

TEST(HtmlHistoryFigure, AStepAcrossDevicesNotGatedIsGreyAndSaysWhy) {
  // 20 runs on one GPU, 20 on another 0.3% slower: a step the history names, not gated.
  std::vector<HistoryPoint> points;
  for (int i = 0; i < 40; ++i) {
    HistoryPoint p;
    p.machine_id = "gpu-test";
    p.case_id = "copy/vulkan/n=33554432";
    p.run_id = "run-" + std::to_string(i);
    p.commit = "commit" + std::to_string(i);
    p.started_at = "2026-11-29T10:" + std::to_string(10 + i) + ":00Z";
    p.device_uuid = i < 20 ? "gpu-a" : "gpu-b";
    p.source_hash = "sha256:one";
    p.verdict = Verdict::pass;
    p.medians["latency_ns"] = 1e5 * (i < 20 ? 1.0 : 1.003) * (1 + 0.0001 * std::sin(i));
    points.push_back(p);
  }
  const auto judged =
      analyse_history(points, ThresholdSet::from_yaml_text("defaults: {}\n", "t.yaml"), nullptr, {});
  ASSERT_EQ(judged.size(), 1u);
  ASSERT_EQ(judged[0].changes.size(), 1u);
  ASSERT_FALSE(judged[0].changes[0].not_gated.empty());
  RunResult run;
  run.fingerprint.machine_id = "gpu-test";
  CaseResult c;
  c.id = "copy/vulkan/n=33554432";
  c.verdict = Verdict::pass;
  run.cases.push_back(c);
  const std::string html = html::history_section(run, {{c.id, points}}, judged);
  EXPECT_NE(html.find("regression (another device)"), std::string::npos);
  EXPECT_NE(html.find("not gated: runs on another device"), std::string::npos);
  EXPECT_NE(html.find("#9e9e9e"), std::string::npos);
  EXPECT_EQ(html.find("#c62828"), std::string::npos) << "a step the gate does not fail drawn red";
}

}  // namespace
}  // namespace perfgate
