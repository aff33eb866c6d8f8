#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "core/units.h"
#include "judge/verdict.h"
#include "notify/alert.h"
#include "notify/config.h"
#include "notify/notify_fixture.h"
#include "notify/payload_generic.h"
#include "notify/payload_slack.h"

namespace perfgate {
namespace {

using nlohmann::json;
using notify_testing::env_of;
using notify_testing::fixture_run;
using notify_testing::judged_case;

TEST(NotifyPayload, GenericCarriesRunMachineCountsAndDeltas) {
  const RunResult run = fixture_run();
  const CiContext ci = ci_context(env_of({{"GITHUB_SERVER_URL", "https://github.com"},
                                          {"GITHUB_REPOSITORY", "acme/kernels"},
                                          {"GITHUB_RUN_ID", "42"}}));
  const json body = generic_payload(run, run_context(run, ci), "msg_x");
  EXPECT_EQ(body["schema"], "perfgate.alert.v1");
  EXPECT_EQ(body["id"], "msg_x");
  EXPECT_EQ(body["status"], "regressed");
  EXPECT_EQ(body["run"]["id"], run.run_id);
  EXPECT_EQ(body["run"]["commit"], run.commit);
  EXPECT_EQ(body["run"]["branch"], "main");
  EXPECT_EQ(body["run"]["ci_url"], "https://github.com/acme/kernels/actions/runs/42");
  EXPECT_EQ(body["machine"]["machine_id"], "cpu-test-machine-2t");
  EXPECT_EQ(body["summary"]["cases"], 3);
  EXPECT_EQ(body["summary"]["regressed"], 1);
  EXPECT_EQ(body["summary"]["improved"], 1);
  EXPECT_EQ(body["summary"]["pass"], 1);
  EXPECT_EQ(body["summary"]["error"], 0);
  EXPECT_EQ(body["summary"]["no-baseline"], 0);
  ASSERT_EQ(body["deltas"].size(), 3u);
  const json& worst = body["deltas"][0];
  EXPECT_EQ(worst["case"], "copy/cpu/n=16777216");
  EXPECT_EQ(worst["metric"], "latency_ns");
  EXPECT_EQ(worst["verdict"], "regressed");
  EXPECT_DOUBLE_EQ(worst["baseline"].get<double>(), 1200000.0);
  EXPECT_DOUBLE_EQ(worst["current"].get<double>(), 2400000.0);
  EXPECT_DOUBLE_EQ(worst["change_pct"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(worst["threshold_pct"].get<double>(), 5.0);
  EXPECT_EQ(body["deltas"][1]["verdict"], "improved");
  EXPECT_EQ(body["deltas"][2]["verdict"], "pass");
  EXPECT_TRUE(body["failures"].empty());
}

TEST(NotifyPayload, DeltasAreOrderedWorstFirstAndFailuresListed) {
  RunResult run;
  run.run_id = "r";
  run.cases = {judged_case("a/cpu", Verdict::regressed, 10), judged_case("b/cpu", Verdict::pass, 1),
               judged_case("c/cpu", Verdict::regressed, 80), judged_case("d/cpu", Verdict::improved, -30)};
  CaseResult broken;
  broken.id = "e/cpu";
  broken.verdict = Verdict::error;
  broken.message = "output differs from the reference at 17";
  run.cases.push_back(broken);
  const json body = generic_payload(run, {}, "msg_y");
  EXPECT_EQ(body["status"], "error");
  std::vector<std::string> order;
  for (const auto& d : body["deltas"]) order.push_back(d["case"]);
  EXPECT_EQ(order, (std::vector<std::string>{"c/cpu", "a/cpu", "d/cpu", "b/cpu"}));
  ASSERT_EQ(body["failures"].size(), 1u);
  EXPECT_EQ(body["failures"][0]["case"], "e/cpu");
  EXPECT_EQ(body["failures"][0]["message"], broken.message);
}

TEST(NotifyPayload, CiContextFromGitLabAndJenkinsFillsGaps) {
  CiContext gitlab = ci_context(env_of({{"CI_JOB_URL", "https://gitlab.example.com/g/p/-/jobs/7"},
                                        {"CI_COMMIT_SHA", "abc"},
                                        {"CI_COMMIT_REF_NAME", "feature"}}));
  EXPECT_EQ(gitlab.url, "https://gitlab.example.com/g/p/-/jobs/7");
  RunResult run;  // no commit or branch of its own
  RunContext context = run_context(run, gitlab);
  EXPECT_EQ(context.commit, "abc");
  EXPECT_EQ(context.branch, "feature");
  EXPECT_EQ(ci_context(env_of({{"BUILD_URL", "https://ci.example.com/job/1/"}})).url,
            "https://ci.example.com/job/1/");
  EXPECT_EQ(ci_context(env_of({})).url, "");
  // The run's own commit wins over the CI's.
  run.commit = "def";
  EXPECT_EQ(run_context(run, gitlab).commit, "def");
}

TEST(NotifyPayload, AlertIdIsStablePerRunAndDistinctAcrossRuns) {
  EXPECT_EQ(alert_id("run-1"), alert_id("run-1"));
  EXPECT_NE(alert_id("run-1"), alert_id("run-2"));
  EXPECT_EQ(alert_id("run-1").rfind("msg_", 0), 0u);
  EXPECT_EQ(alert_id("run-1").size(), 4u + 32u);
  const RunResult run = fixture_run();
  const Alert a = make_alert(run, {}, PayloadFormat::generic, 1000);
  const Alert b = make_alert(run, {}, PayloadFormat::generic, 2000);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.body, b.body);  // the body does not depend on when it was built
  EXPECT_EQ(json::parse(a.body)["id"], a.id);
}

TEST(NotifyPayload, SendPolicyChoosesWhichRunsAlert) {
  RunResult quiet;
  quiet.cases = {judged_case("a/cpu", Verdict::pass, 1)};
  RunResult better;
  better.cases = {judged_case("a/cpu", Verdict::improved, -20)};
  RunResult worse;
  worse.cases = {judged_case("a/cpu", Verdict::regressed, 20)};
  RunResult failed;
  failed.cases = {CaseResult{}};
  failed.cases[0].verdict = Verdict::error;

  EXPECT_FALSE(should_send(quiet, SendPolicy::regressions));
  EXPECT_FALSE(should_send(better, SendPolicy::regressions));
  EXPECT_TRUE(should_send(worse, SendPolicy::regressions));
  EXPECT_TRUE(should_send(failed, SendPolicy::regressions));
  EXPECT_FALSE(should_send(quiet, SendPolicy::deltas));
  EXPECT_TRUE(should_send(better, SendPolicy::deltas));
  EXPECT_TRUE(should_send(quiet, SendPolicy::always));
}

// A regression caused by an absolute floor names the floor, not the noise allowance the change
// stayed within: the judgement's source says so, the generic payload carries its reason, and
// Slack's line states it instead of a limit that was not exceeded.
TEST(NotifyPayload, AFloorRegressionNamesTheFloor) {
  MetricThreshold t;
  t.direction = Direction::higher;
  t.min_allowed_pct = 5;
  t.floor = 50;
  const std::vector<double> baseline = {49, 49.5, 49.2, 49.1, 49.3, 49.4, 49.2, 49.0, 49.6, 49.3};
  const std::vector<double> current = {48.8, 49.1, 48.9, 49.0, 49.2, 48.7, 49.0, 48.9, 49.1, 49.0};
  CaseResult c = judged_case("fill/cpu/n=1", Verdict::regressed, 0);
  c.judgements = {judge_metric("bandwidth_gbps", current, {baseline}, t, 0.01, 4.0)};
  ASSERT_EQ(c.judgements[0].verdict, Verdict::regressed);
  EXPECT_EQ(c.judgements[0].threshold_source, kAbsoluteFloor);
  RunResult run;
  run.run_id = "floor";
  run.cases = {c};

  const json delta = generic_payload(run, {}, "msg_floor")["deltas"].at(0);
  EXPECT_EQ(delta["threshold_source"], "absolute floor");
  EXPECT_NE(delta["reason"].get<std::string>().find("below the floor 50.0 GB/s"), std::string::npos)
      << delta.dump();

  const json slack = slack_payload(run, {});
  std::string text;
  for (const auto& block : slack["blocks"])
    if (block["type"] == "section") text += block["text"]["text"].get<std::string>();
  EXPECT_NE(text.find("below the floor 50.0 GB/s"), std::string::npos) << text;
  EXPECT_EQ(text.find("limit 5.0 %"), std::string::npos) << text;
}

// A metric judged by its floor only (pct_peak_bw): the payload's allowance is how far below the
// baseline the floor lay, not the noise allowance of a metric with no relative threshold (once
// `threshold_pct: 21097.16`), the floor itself is carried, and Slack gives each figure once
// (once "(+1.6 %, median 15.8% of peak below the floor ...; median 15.8% of peak vs 16.1% of
// peak: 1.6% worse)").
TEST(NotifyPayload, AFloorOnlyMetricQuotesItsFloorOnce) {
  MetricThreshold t;
  t.direction = Direction::higher;
  t.floor = 16;
  // Runs far apart, so that a noise allowance would be huge.
  const std::vector<std::vector<double>> baseline = {
      {16.1, 16.1, 16.1}, {3.0, 3.1, 3.0}, {16.1, 16.2, 16.0}, {40.0, 41.0, 40.5}, {16.1, 16.1, 16.1}};
  const std::vector<double> current = {15.8, 15.8, 15.8, 15.8, 15.8};
  CaseResult c = judged_case("copy/cpu/n=1", Verdict::regressed, 0);
  c.judgements = {judge_metric("pct_peak_bw", current, baseline, t, 0.01, 4.0)};
  const Judgement& j = c.judgements[0];
  ASSERT_EQ(j.verdict, Verdict::regressed);
  EXPECT_EQ(j.threshold_source, kAbsoluteFloor);
  EXPECT_DOUBLE_EQ(j.floor, 16);
  EXPECT_NEAR(j.threshold_pct, 100 * (j.baseline_median / 16 - 1), 1e-9);
  EXPECT_LT(j.threshold_pct, 2);
  RunResult run;
  run.run_id = "floor-only";
  run.cases = {c};

  const json delta = generic_payload(run, {}, "msg_floor")["deltas"].at(0);
  EXPECT_EQ(delta["metric"], "pct_peak_bw");
  EXPECT_NEAR(delta["threshold_pct"].get<double>(), j.threshold_pct, 1e-9);
  EXPECT_EQ(delta["floor"], 16.0);

  std::string text;
  const json slack = slack_payload(run, {});
  for (const auto& block : slack["blocks"])
    if (block["type"] == "section") text += block["text"]["text"].get<std::string>();
  const std::string line =
      "`copy/cpu/n=1` pct_peak_bw regressed: " + format_metric_value("pct_peak_bw", j.baseline_median) +
      " \u2192 15.8% of peak (+" + fmt::format("{:.1f}", j.change_pct) + " %), below the floor 16.0% of peak";
  EXPECT_NE(text.find(line), std::string::npos) << text;
  std::size_t quoted = 0;
  for (auto at = text.find("15.8% of peak"); at != std::string::npos; at = text.find("15.8% of peak", at + 1))
    ++quoted;
  EXPECT_EQ(quoted, 1u) << text;
  // A generic delta of a relative allowance has no floor.
  run.cases = {judged_case("copy/cpu/n=2", Verdict::regressed, 7)};
  EXPECT_TRUE(generic_payload(run, {}, "msg")["deltas"].at(0)["floor"].is_null());
}

}  // namespace
}  // namespace perfgate
