// One alert for several machines' runs: the fleet schema with every machine's body, the same id
// for the same runs in any order, a Slack message naming each case's machine.
#include "notify/fleet_alert.h"

#include <gtest/gtest.h>

#include "notify/notify_fixture.h"

namespace perfgate {
namespace {

using nlohmann::json;
using notify_testing::judged_case;

RunResult machine(const std::string& machine_id, const std::string& run_id, std::vector<CaseResult> cases) {
  RunResult run;
  run.run_id = run_id;
  run.fingerprint.machine_id = machine_id;
  run.commit = "abc123";
  run.cases = std::move(cases);
  return run;
}

std::vector<DeviceRun> fleet_alert_devices(std::vector<RunResult> runs) {
  std::vector<ResultsFile> files;
  for (RunResult& run : runs) files.push_back({run.run_id + ".json", std::move(run)});
  return runs_per_device(std::move(files));
}

std::vector<RunResult> fleet_runs() {
  return {
      machine("cpu-amd-epyc-2t", "r-cpu", {judged_case("copy/cpu/n=1", Verdict::pass, 1)}),
      machine("llvmpipe", "r-llvmpipe", {judged_case("copy/vulkan/n=1", Verdict::pass, -1)}),
      machine("nvidia-h100-80gb-hbm3", "r-h100", {judged_case("copy/vulkan/n=1", Verdict::regressed, 12)})};
}

std::vector<DeviceRun> fleet() { return fleet_alert_devices(fleet_runs()); }

TEST(FleetAlert, GenericCarriesEachMachineAndTheCombinedStatus) {
  const Alert alert = make_fleet_alert(fleet(), {}, PayloadFormat::generic, 1000);
  const json body = json::parse(alert.body);
  EXPECT_EQ(body["schema"], "perfgate.fleet-alert.v1");
  EXPECT_EQ(body["id"], alert.id);
  EXPECT_EQ(body["status"], "regressed");
  EXPECT_EQ(body["summary"]["cases"], 3);
  EXPECT_EQ(body["summary"]["regressed"], 1);
  EXPECT_EQ(body["summary"]["pass"], 2);
  EXPECT_EQ(body["run"]["commit"], "abc123");
  ASSERT_EQ(body["machines"].size(), 3u);
  EXPECT_EQ(body["machines"][2]["machine"]["machine_id"], "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(body["machines"][2]["status"], "regressed");
  EXPECT_EQ(body["machines"][2]["deltas"][0]["case"], "copy/vulkan/n=1");
  EXPECT_FALSE(body["machines"][0].contains("schema"));
}

TEST(FleetAlert, SameRunsInAnyOrderShareTheAlertId) {
  auto runs = fleet_runs();
  const Alert a = make_fleet_alert(fleet_alert_devices(runs), {}, PayloadFormat::generic, 1000);
  std::swap(runs[0], runs[2]);
  const Alert b = make_fleet_alert(fleet_alert_devices(runs), {}, PayloadFormat::generic, 2000);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.run_id, "r-cpu+r-h100+r-llvmpipe");
  runs[1].run_id = "r-llvmpipe-2";
  EXPECT_NE(make_fleet_alert(fleet_alert_devices(runs), {}, PayloadFormat::generic, 1000).id, a.id);
}

TEST(FleetAlert, SlackNamesEachCasesMachine) {
  const json body = json::parse(make_fleet_alert(fleet(), {}, PayloadFormat::slack, 1000).body);
  const std::string text = body.dump();
  EXPECT_NE(text.find("nvidia-h100-80gb-hbm3: copy/vulkan/n=1"), std::string::npos) << text;
  EXPECT_NE(text.find("cpu-amd-epyc-2t, llvmpipe, nvidia-h100-80gb-hbm3"), std::string::npos) << text;
}

// Two runners with one GPU model: both in the alert, told apart by host, the regression kept.
TEST(FleetAlert, TwoDevicesOfOneMachineIdBothCount) {
  auto runs = fleet_runs();
  runs[0].fingerprint.machine_id = "nvidia-h100-80gb-hbm3";
  runs[0].fingerprint.host_id = "aaaaaaaaaaaa";
  runs[0].cases[0].id = "copy/vulkan/n=1";
  const Alert alert = make_fleet_alert(fleet_alert_devices(runs), {}, PayloadFormat::slack, 1000);
  EXPECT_NE(alert.body.find("nvidia-h100-80gb-hbm3 (host unknown): copy/vulkan/n=1"), std::string::npos)
      << alert.body;
  const json generic =
      json::parse(make_fleet_alert(fleet_alert_devices(runs), {}, PayloadFormat::generic, 1000).body);
  EXPECT_EQ(generic["status"], "regressed");
  EXPECT_EQ(generic["summary"]["cases"], 3);
}

TEST(FleetAlert, SentWhenAnyMachineAsks) {
  auto runs = fleet();
  EXPECT_TRUE(should_send(runs, SendPolicy::regressions));
  runs.pop_back();
  EXPECT_FALSE(should_send(runs, SendPolicy::regressions));
  EXPECT_TRUE(should_send(runs, SendPolicy::always));
}

}  // namespace
}  // namespace perfgate
