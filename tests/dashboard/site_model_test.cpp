#include "dashboard/site_model.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "dashboard/attention.h"
#include "dashboard/script_json.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

using nlohmann::json;

// `runs` runs of one case on one machine, latency = 1 ms x seeded 0.3% noise, `step_pct` slower
// from run `step_at` on; commits "c<run>" shared by every machine, so a step at the same run on
// two machines lies in one commit range.
std::vector<HistoryPoint> dashboard_series(const std::string& machine, const std::string& case_id, int runs,
                                           int step_at, double step_pct, unsigned seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0, 0.003);
  std::vector<HistoryPoint> points;
  for (int i = 0; i < runs; ++i) {
    HistoryPoint p;
    p.machine_id = machine;
    p.case_id = case_id;
    p.run_id = "run-" + std::to_string(100 + i);
    p.commit = "c" + std::to_string(100 + i);
    p.started_at = "2026-11-01T00:" + std::to_string(10 + i) + ":00Z";
    p.branch = "main";
    p.medians["latency_ns"] = 1e6 * (step_at >= 0 && i >= step_at ? 1 + step_pct / 100 : 1.0) * std::exp(noise(random));
    p.spreads["latency_ns"] = 1e3;
    points.push_back(p);
  }
  return points;
}

ThresholdSet dashboard_thresholds() {
  return ThresholdSet::from_yaml_text("defaults:\n  history: {min_magnitude_pct: 2, drift_max_pct: 5}\n", "t.yaml");
}

std::vector<CaseHistory> judged(std::vector<std::vector<HistoryPoint>> series,
                                const std::map<std::string, Acknowledgement>& acks = {}) {
  std::vector<HistoryPoint> all;
  for (auto& s : series) all.insert(all.end(), s.begin(), s.end());
  return analyse_history(all, dashboard_thresholds(), nullptr, acks);
}

TEST(DashboardScriptJson, HostileStringsCannotLeaveTheScript) {
  const std::string hostile = "</script><script>alert(1)</script>\xE2\x80\xA8\xE2\x80\xA9<!--\x1b&";
  const std::string text = script_safe_json(json{{"case", hostile}});
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  EXPECT_EQ(text.find('>'), std::string::npos) << text;
  EXPECT_EQ(text.find("\xE2\x80\xA8"), std::string::npos) << text;
  EXPECT_EQ(text.find("\xE2\x80\xA9"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(json::parse(text)["case"], hostile);  // the same string, read back
  // Bytes that are not UTF-8 do not stop the site: they become U+FFFD.
  EXPECT_EQ(json::parse(script_safe_json(json("a\xff"))), "a\xEF\xBF\xBD");
  EXPECT_EQ(data_script("case", "0123456789abcdef", json::object()), "perfgateData(\"case\",\"0123456789abcdef\",{});\n");
}

TEST(DashboardAttention, OneStepOnTwoMachinesIsOneItemWithItsRange) {
  const auto histories = judged({dashboard_series("gpu-a", "copy/vulkan/n=1", 40, 30, 10, 1),
                                 dashboard_series("gpu-b", "copy/vulkan/n=1", 40, 30, 10, 2),
                                 dashboard_series("gpu-a", "triad/vulkan/n=1", 40, -1, 0, 3)});
  const json items = attention_items(histories, {});
  ASSERT_EQ(items.size(), 1u) << items.dump(1);
  const json& item = items[0];
  EXPECT_EQ(item["commit_before"], "c129");
  EXPECT_EQ(item["commit_after"], "c130");
  EXPECT_EQ(item["state"], "open");
  EXPECT_EQ(item["cases"], 1);
  EXPECT_EQ(item["machines"], json({"gpu-a", "gpu-b"}));
  EXPECT_NEAR(double(item["worst"]["change_pct"]), 10, 1);
  // The step and the drift it made share the range: one item holding both.
  EXPECT_EQ(item["kinds"], json({"step", "drift"}));
  EXPECT_EQ(series_state(histories[2]), "unchanged");
}

TEST(DashboardAttention, StatesComeFromTheLogs) {
  auto histories = judged({dashboard_series("m", "copy/cpu/n=1", 40, 30, 10, 1),
                           dashboard_series("m", "triad/cpu/n=1", 40, 15, 12, 4)});
  const std::string copy_cp = histories[0].changes.at(0).id, triad_cp = histories[1].changes.at(0).id;
  // Acknowledged: the judge reads ACKNOWLEDGED.log; the dashboard shows whom and why.
  histories = judged({dashboard_series("m", "copy/cpu/n=1", 40, 30, 10, 1),
                      dashboard_series("m", "triad/cpu/n=1", 40, 15, 12, 4)},
                     {{triad_cp, {triad_cp, "alice", "<b>wanted</b>", "2026-11-02T00:00:00Z"}}});
  attach_bisections(histories, {{copy_cp, {copy_cp, {{"c130ffff", "slower copy", 9.8, 8.0, 11.0, true}}, 4, "t"}}});
  const json items = attention_items(histories, {copy_cp});
  json copy, triad;
  for (const json& item : items) (item["worst"]["case"] == "copy/cpu/n=1" ? copy : triad) = item;
  EXPECT_EQ(copy["state"], "open");
  EXPECT_TRUE(copy["alerted"].get<bool>());
  ASSERT_EQ(copy["bisected"].size(), 1u);
  EXPECT_EQ(copy["bisected"][0]["sha"], "c130ffff");
  EXPECT_EQ(triad["state"], "acknowledged");
  EXPECT_EQ(triad["acknowledged"], json::array({{{"by", "alice"}, {"reason", "<b>wanted</b>"}}}));
  EXPECT_FALSE(triad["alerted"].get<bool>());
  EXPECT_EQ(series_state(histories[1]), "acknowledged");
  // Open items come first.
  EXPECT_EQ(items[0]["state"], "open");
}

TEST(DashboardAttention, AStepUndoneLaterIsRecovered) {
  auto points = dashboard_series("m", "copy/cpu/n=1", 60, 20, 10, 5);
  for (int i = 40; i < 60; ++i) points[i].medians["latency_ns"] /= 1.09;  // fixed at run 40, to within 1%
  const auto histories = judged({points});
  ASSERT_EQ(histories[0].changes.size(), 2u);
  EXPECT_TRUE(recovered(histories[0], histories[0].changes[0]));
  const json items = attention_items(histories, {});
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0]["recovered"].get<bool>());
}

TEST(DashboardSiteData, EveryCaseAndRunHasItsDocumentAndTheIndexNamesThem) {
  const auto histories = judged({dashboard_series("gpu-a", "copy/vulkan/n=1", 12, -1, 0, 1),
                                 dashboard_series("gpu-b", "copy/vulkan/n=1", 10, -1, 0, 2),
                                 dashboard_series("gpu-a", "<script>x</script>/cpu/n=1", 12, -1, 0, 3)});
  std::map<std::string, json> cases, runs;
  const json index = build_site_data({.histories = &histories}, [&](const std::string& kind, const std::string& key,
                                                                    const json& doc) {
    (kind == "case" ? cases : runs)[key] = doc;
  });
  ASSERT_EQ(index["cases"].size(), 2u);
  ASSERT_EQ(index["runs"].size(), 12u);  // runs shared by the machines once each
  EXPECT_EQ(runs.size(), 12u);
  EXPECT_EQ(cases.size(), 2u);
  for (const json& c : index["cases"]) {
    ASSERT_TRUE(cases.count(c["key"])) << c["id"];
    EXPECT_EQ(cases[c["key"]]["case"], c["id"]);
    EXPECT_EQ(c["key"], site_key(c["id"]));
  }
  const json& copy = index["cases"][1];
  EXPECT_EQ(copy["id"], "copy/vulkan/n=1");
  EXPECT_EQ(copy["kernel"], "copy");
  EXPECT_EQ(copy["backend"], "vulkan");
  ASSERT_EQ(copy["series"].size(), 2u);
  EXPECT_EQ(copy["series"][1]["runs"], 10);
  EXPECT_EQ(copy["series"][1]["state"], "unchanged");
  // A case's points name their run by its index in the index's runs.
  const json& points = cases[copy["key"]]["series"][1]["points"];
  ASSERT_EQ(points.size(), 10u);
  EXPECT_EQ(index["runs"][points[9][0].get<int>()]["id"], "run-109");
  // The first run holds all three series; its rows name the case by index.
  const json& first = runs[index["runs"][0]["key"]];
  EXPECT_EQ(first["run"], "run-100");
  EXPECT_EQ(first["rows"].size(), 3u);
  EXPECT_EQ(index["runs"][0]["machines"], json({"gpu-a", "gpu-b"}));
  EXPECT_EQ(index["runs"][11]["machines"], json({"gpu-a"}));
}

}  // namespace
}  // namespace perfgate

namespace perfgate {
namespace {

TEST(DashboardApprovals, TheNewestApprovalOfEachCaseAndADropRemovesIt) {
  const auto dir = std::filesystem::temp_directory_path() / ("dashboard-approvals-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "gpu-a");
  std::ofstream(dir / "gpu-a" / "APPROVALS.log")
      << R"({"time":"t1","action":"approve","case":"copy/vulkan/n=1","by":"alice","reason":"first","commit":"c1","candidate_digest":"sha256:1"})"
      << "\n"
      << R"({"time":"t2","action":"approve","case":"copy/vulkan/n=1","by":"bob","reason":"<b>second</b>","commit":"c2","candidate_digest":"sha256:2"})"
      << "\n"
      << R"({"time":"t3","action":"approve","case":"fill/vulkan/n=1","by":"carol","reason":"x","commit":"c3","candidate_digest":"sha256:3"})"
      << "\n"
      << R"({"time":"t4","action":"drop","case":"fill/vulkan/n=1","by":"carol","reason":"gone","commit":"c4","candidate_digest":""})"
      << "\n";
  const auto approvals = read_approvals(dir.string());
  ASSERT_EQ(approvals.size(), 1u);
  const ApprovalLogEntry& copy = approvals.at({"gpu-a", "copy/vulkan/n=1"});
  EXPECT_EQ(copy.by, "bob");
  EXPECT_EQ(copy.reason, "<b>second</b>");
  // A line the log's reader refuses is refused here, naming the file and line.
  std::ofstream(dir / "gpu-a" / "APPROVALS.log", std::ios::app) << "{\"time\": \"cut\n";
  try {
    read_approvals(dir.string());
    ADD_FAILURE() << "a broken approval log line was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("APPROVALS.log:5"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace perfgate
