// The event stream: a line per dispatch of the plan with its geometry, then a line per case.
#include "report/event_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfgate/error.h"
#include "report_fixture.h"

namespace perfgate {
namespace {

std::vector<nlohmann::json> read_lines(const std::filesystem::path& file) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

class EventStreamTest : public testing::Test {
 protected:
  std::filesystem::path file_ =
      std::filesystem::temp_directory_path() / ("perfgate-events-" + std::to_string(getpid()) + ".jsonl");
  void TearDown() override { std::filesystem::remove(file_); }
};

TEST_F(EventStreamTest, VulkanCaseHasOneLinePerDispatchWithGeometryThenTheCase) {
  RunResult run = test::mixed_run();
  CaseResult c = test::measured_case("reduce", Params({{"n", 1 << 20}, {"wg", 256}}), 50000, 4194304);
  c.backend = "vulkan";
  c.id = "reduce/vulkan/n=1048576,wg=256";
  c.encode_ns = 420;
  c.stages = {{"partials", 40000, 80}, {"final", 10000, 20}};
  // As reflected from the SPIR-V: a literal size the specialization words do not show.
  c.local_sizes = {{512, 1, 1}, {64, 2, 1}};
  // As a driver reports them for the first pipeline; none for the second.
  c.shader_statistics = {{{"Register Count", 40}, {"Spill Count", 0}}, {}};
  DeviceLimits limits;
  limits.max_workgroup_invocations = 1024;
  {
    EventStream events(file_);
    events.write_case(run, c, limits);
  }
  const auto lines = read_lines(file_);
  ASSERT_EQ(lines.size(), 3u);  // two dispatches (partials, final), then the case
  EXPECT_EQ(lines[0]["type"], "dispatch");
  EXPECT_EQ(lines[0]["case"], c.id);
  EXPECT_EQ(lines[0]["stage"], "partials");
  EXPECT_EQ(lines[0]["gpu_ns"], 40000);
  EXPECT_EQ(lines[0]["host_encode_ns"], 420);
  EXPECT_EQ(lines[0]["local_size"], nlohmann::json::array({512, 1, 1}));
  EXPECT_EQ(lines[1]["local_size"], nlohmann::json::array({64, 2, 1}));
  EXPECT_EQ(lines[0]["shader_statistics"]["Register Count"], 40);
  EXPECT_EQ(lines[0]["shader_statistics"]["Spill Count"], 0);
  EXPECT_FALSE(lines[1].contains("shader_statistics"));
  EXPECT_GE(lines[0]["groups"][0].get<int>(), 1);
  EXPECT_EQ(lines[1]["stage"], "final");
  EXPECT_EQ(lines[2]["type"], "case");
  EXPECT_EQ(lines[2]["verdict"], "pass");
  EXPECT_NEAR(lines[2]["medians"]["latency_ns"].get<double>(), 50000, 1);
  EXPECT_EQ(lines[2]["run_id"], run.run_id);
}

TEST_F(EventStreamTest, AppendsSoTheChecksOfOneCtestRunShareAFile) {
  const RunResult run = test::mixed_run();
  for (int i = 0; i < 2; ++i) {
    EventStream events(file_);
    events.write_case(run, run.cases[0], DeviceLimits{});  // a CPU case: one dispatch + the case
  }
  const auto lines = read_lines(file_);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["type"], "dispatch");
  EXPECT_EQ(lines[0]["stage"], run.cases[0].kernel);
  EXPECT_EQ(lines[3]["type"], "case");
}

TEST_F(EventStreamTest, ErrorCaseHasOnlyItsCaseLineWithTheMessage) {
  const RunResult run = test::mixed_run();
  const CaseResult* error = nullptr;
  for (const auto& c : run.cases)
    if (c.verdict == Verdict::error) error = &c;
  ASSERT_NE(error, nullptr);
  {
    EventStream events(file_);
    events.write_case(run, *error, DeviceLimits{});
  }
  const auto lines = read_lines(file_);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["verdict"], "error");
  EXPECT_EQ(lines[0]["message"], error->message);
}

TEST(EventStream, UnwritablePathIsAnErrorNamingIt) {
  try {
    EventStream events("/nonexistent-dir/events.jsonl");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/events.jsonl"), std::string::npos);
  }
}

}  // namespace
}  // namespace perfgate
