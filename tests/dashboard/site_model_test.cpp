#include "dashboard/site_model.h"

#include <fmt/format.h>
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

// `runs` gated runs of copy on one GPU of nvidia-h200, a minute apart from `first_minute` on the
// day after its baseline, 0.31% faster than it with seeded 0.02% noise.
std::vector<HistoryPoint> calibration_runs(const std::string& case_id, const std::string& uuid, int runs, int first_minute,
                                   const std::string& source, std::mt19937_64& random) {
  std::normal_distribution<double> noise(0, 0.0002);
  std::vector<HistoryPoint> points;
  for (int i = 0; i < runs; ++i) {
    HistoryPoint p;
    p.machine_id = "nvidia-h200";
    p.case_id = case_id;
    p.device_uuid = uuid;
    p.host_id = "h1";
    p.driver = "580.95.05";
    p.source_hash = source;
    const int minute = first_minute + i;
    p.run_id = "run-" + std::to_string(minute);
    p.commit = "c" + std::to_string(minute);
    p.started_at = fmt::format("2026-11-02T{:02d}:{:02d}:00Z", minute / 60, minute % 60);
    p.branch = "main";
    p.medians["latency_ns"] = 68700 * 0.9969 * (1 + noise(random));
    points.push_back(p);
  }
  return points;
}

BaselineCase calibration_baseline(const std::string& case_id, std::mt19937_64& random) {
  BaselineCase b;
  b.id = case_id;
  b.backend = "vulkan";
  b.source_hash = "sha256:copy";
  b.measured_at = "2026-11-01T00:00:00Z";
  b.fingerprint.machine_id = "nvidia-h200";
  b.fingerprint.device_uuid = "gpu-a";
  b.fingerprint.host_id = "h0";
  std::normal_distribution<double> noise(0, 0.0002);
  for (int run = 0; run < 5; ++run) {
    std::vector<double> samples;
    for (int i = 0; i < 20; ++i) samples.push_back(68700 * (1 + noise(random)));
    b.runs["latency_ns"].push_back(samples);
  }
  return b;
}

TEST(DashboardSiteData, SaysHowManyDevicesOfAMachineIdAreCalibrated) {
  std::mt19937_64 random(65);
  const std::string copy = "copy/vulkan/n=33554432", triad = "triad/vulkan/n=33554432";
  // copy: the baseline's GPU (gpu-a, 3 runs); gpu-b 5 runs at the baseline's source after its
  // runs, placed; gpu-c 2, three short; gpu-d 6 at another kernel source (a change gated), none
  // of which count. triad: gpu-b 2 runs, so gpu-b is calibrated in one of its two cases.
  std::vector<std::vector<HistoryPoint>> series{
      calibration_runs(copy, "gpu-a", 3, 0, "sha256:copy", random),  calibration_runs(copy, "gpu-b", 5, 10, "sha256:copy", random),
      calibration_runs(copy, "gpu-c", 2, 20, "sha256:copy", random), calibration_runs(copy, "gpu-d", 6, 30, "sha256:new", random),
      calibration_runs(triad, "gpu-b", 2, 40, "sha256:copy", random)};
  const auto histories = judged(series);
  SiteInputs in{.histories = &histories};
  in.baselines[{"nvidia-h200", copy}] = calibration_baseline(copy, random);
  in.baselines[{"nvidia-h200", triad}] = calibration_baseline(triad, random);
  std::map<std::string, json> cases;
  const json index = build_site_data(in, [&](const std::string& kind, const std::string&, const json& doc) {
    if (kind == "case") cases[doc["case"]] = doc;
  });

  // The case page: 2 of 4 GPUs, each with how its level is known or what places it.
  const json& c = cases.at(copy)["series"].at(0)["calibration"];
  EXPECT_EQ(c["devices_are"], "GPUs");
  EXPECT_EQ(c["calibrated"], 2);
  ASSERT_EQ(c["devices"].size(), 4u) << c.dump(1);
  const json &a = c["devices"][0], &b = c["devices"][1], &gc = c["devices"][2], &d = c["devices"][3];
  EXPECT_EQ(a["device"], "gpu-a");
  EXPECT_TRUE(a["baseline"].get<bool>());
  EXPECT_EQ(b["device"], "gpu-b");
  EXPECT_TRUE(b["placed"].get<bool>());
  EXPECT_EQ(b["offset_runs"], 5);
  EXPECT_NEAR(b["offset_pct"].get<double>(), -0.31, 0.05);
  EXPECT_EQ(gc["device"], "gpu-c");
  EXPECT_FALSE(gc["placed"].get<bool>());
  EXPECT_EQ(gc["offset_runs"], 2);
  EXPECT_NE(gc["why"].get<std::string>().find("3 more runs of this GPU at the baseline's kernel source"),
            std::string::npos)
      << gc["why"];
  EXPECT_EQ(d["device"], "gpu-d");
  EXPECT_FALSE(d["placed"].get<bool>());
  EXPECT_EQ(d["runs"], 6);
  EXPECT_EQ(d["offset_runs"], 0);
  EXPECT_NE(d["why"].get<std::string>().find("5 more runs"), std::string::npos) << d["why"];
  EXPECT_NE(d["why"].get<std::string>().find("6 at another kernel source"), std::string::npos) << d["why"];

  // The front page: per machine id, a device is calibrated where it is in every case it ran.
  ASSERT_EQ(index["calibration"].size(), 1u) << index["calibration"].dump(1);
  const json& machine = index["calibration"][0];
  EXPECT_EQ(machine["machine"], "nvidia-h200");
  EXPECT_EQ(machine["devices_are"], "GPUs");
  EXPECT_EQ(machine["calibrated"], 1);  // gpu-a, by the baseline's runs in both cases
  ASSERT_EQ(machine["devices"].size(), 4u);
  const json& gpu_b = machine["devices"][1];
  EXPECT_EQ(gpu_b["device"], "gpu-b");
  EXPECT_EQ(gpu_b["cases"], 2);
  EXPECT_EQ(gpu_b["placed_cases"], 1);
  EXPECT_EQ(gpu_b["not_yet_cases"], 1);
  ASSERT_EQ(gpu_b["not_yet"].size(), 1u);
  EXPECT_EQ(gpu_b["not_yet"][0]["case"], triad);
  EXPECT_EQ(machine["devices"][0]["baseline_cases"], 2);

  // Without a baseline a series calibrates nothing.
  const auto plain = judged({dashboard_series("m", "copy/cpu/n=1", 6, -1, 0, 1)});
  const json none = build_site_data({.histories = &plain}, [](const std::string&, const std::string&, const json&) {});
  EXPECT_TRUE(none["calibration"].empty());
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
