// The timeline export: Chrome Trace Event Format, as Perfetto and speedscope read it.
#include "report/trace_printer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "perfgate/metric_names.h"
#include "report_fixture.h"

namespace perfgate {
namespace {

using nlohmann::json;

std::vector<json> events_where(const json& trace, const std::string& key, const std::string& value) {
  std::vector<json> out;
  for (const json& e : trace["traceEvents"])
    if (e.contains(key) && e[key] == value) out.push_back(e);
  return out;
}

RunResult staged_vulkan_run() {
  RunResult run = test::mixed_run();
  run.fingerprint.backend = "vulkan";
  run.fingerprint.device_name = "Test GPU";
  run.cases.clear();
  CaseResult c = test::measured_case("reduce", Params({{"n", 1 << 20}}), 50000, 4194304);
  c.backend = "vulkan";
  c.id = "reduce/vulkan/n=1048576";
  c.encode_ns = 2000;
  c.stages = {{"partials", 40000, 80}, {"final", 10000, 20}};
  // The host takes 80 us per dispatch against the GPU's ~50 us: the queue idles between them.
  c.metrics[metric::host_latency_ns] = test::metric_of(std::vector<double>(21, 80000));
  c.metrics[metric::sm_clock_mhz] = test::metric_of(std::vector<double>(21, 1980));
  c.judgements.push_back(test::latency_judgement(1.5, Verdict::pass));
  run.cases.push_back(c);
  CaseResult failed;
  failed.id = "copy/vulkan/n=64";
  failed.verdict = Verdict::error;
  run.cases.push_back(failed);
  return run;
}

TEST(ReportTrace, EveryEventHasTheFieldsItsPhaseNeeds) {
  const json trace = json::parse(render_chrome_trace(staged_vulkan_run()));
  ASSERT_TRUE(trace["traceEvents"].is_array());
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  for (const json& e : trace["traceEvents"]) {
    ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("name")) << e;
    const std::string ph = e["ph"];
    if (ph == "X") {
      EXPECT_TRUE(e["ts"].is_number() && e["dur"].is_number() && e.contains("tid")) << e;
      // speedscope appends any args to the name: only the case slices carry them.
      EXPECT_EQ(e.contains("args"), e["cat"] == "case") << e;
      EXPECT_GE(e["dur"].get<double>(), 0) << e;
    } else if (ph == "C") {
      EXPECT_TRUE(e["ts"].is_number() && e["args"].is_object()) << e;
    } else {
      EXPECT_EQ(ph, "M") << e;
    }
  }
  std::set<std::string> tracks;
  for (const json& e : events_where(trace, "name", "thread_name")) tracks.insert(e["args"]["name"]);
  EXPECT_EQ(tracks, (std::set<std::string>{"cases", "queue 0 (GPU)", "host"}));
}

TEST(ReportTrace, DispatchesOnTheQueueWithStagesNestedAndGapsWhereTheHostIsSlower) {
  const json trace = json::parse(render_chrome_trace(staged_vulkan_run()));
  const auto dispatches = events_where(trace, "cat", "dispatch");
  ASSERT_EQ(dispatches.size(), 21u);  // one per hot sample; the failed case has none
  const auto stages = events_where(trace, "cat", "stage");
  ASSERT_EQ(stages.size(), 42u);
  for (std::size_t i = 0; i < dispatches.size(); ++i) {
    const json& d = dispatches[i];
    const double start = d["ts"], end = start + d["dur"].get<double>();
    EXPECT_EQ(d["name"], "reduce/vulkan/n=1048576");
    EXPECT_NEAR(d["dur"].get<double>(), 50.0, 50.0 * 0.021);  // the fixture's samples: 50 us +-2%
    for (const json& s : {stages[2 * i], stages[2 * i + 1]}) {
      EXPECT_EQ(s["tid"], d["tid"]);
      EXPECT_GE(s["ts"].get<double>(), start - 1e-9);
      EXPECT_LT(s["ts"].get<double>() + s["dur"].get<double>(), end);
    }
    EXPECT_NEAR(stages[2 * i]["dur"].get<double>(), 0.8 * d["dur"].get<double>(), 0.0011);
    // Siblings never touch: a viewer may not read the next begin before this end.
    EXPECT_LT(stages[2 * i]["ts"].get<double>() + stages[2 * i]["dur"].get<double>(),
              stages[2 * i + 1]["ts"].get<double>());
    if (i + 1 < dispatches.size()) {
      const double gap = dispatches[i + 1]["ts"].get<double>() - end;
      EXPECT_NEAR(gap, 80.0 - d["dur"].get<double>(), 0.0011);  // host 80 us per dispatch (+1 ns apart)
    }
  }
  const auto encodes = events_where(trace, "cat", "host");
  ASSERT_EQ(encodes.size(), 21u);
  EXPECT_NEAR(encodes[0]["dur"].get<double>(), 2.0, 1e-12);
  EXPECT_NEAR(dispatches[0]["ts"].get<double>(), encodes[0]["ts"].get<double>() + 2.0, 1e-12);
  const auto clocks = events_where(trace, "ph", "C");
  ASSERT_EQ(clocks.size(), 21u);
  EXPECT_EQ(clocks[0]["args"]["sm_clock_mhz"], 1980);
  const auto cases = events_where(trace, "cat", "case");
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0]["name"], "reduce/vulkan/n=1048576");
  EXPECT_EQ(cases[0]["args"]["verdict"], "pass");
  EXPECT_LE(cases[0]["ts"].get<double>(), dispatches.front()["ts"].get<double>());
  EXPECT_GE(cases[0]["ts"].get<double>() + cases[0]["dur"].get<double>(),
            dispatches.back()["ts"].get<double>() + dispatches.back()["dur"].get<double>() - 1e-6);
}

}  // namespace
}  // namespace perfgate
