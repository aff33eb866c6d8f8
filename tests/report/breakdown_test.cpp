#include "report/breakdown.h"

#include <gtest/gtest.h>

#include "report/report_fixture.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

// The staged case with the bounds its stages were judged with when it ran.
CaseResult judged_staged_case() {
  CaseResult c = test::staged_case();
  c.stages[0].bound = "compute";
  c.stages[0].bound_reason = "compute-bound at 40% of peak GFLOP/s";
  c.stages[0].pct_of_peak = 40;
  c.stages[1].bound = "memory";
  c.stages[1].bound_reason = "memory-bound at 62% of peak DRAM bandwidth";
  c.stages[1].pct_of_peak = 62;
  return c;
}

TEST(ReportBreakdown, NamesTheBottleneckStageWithItsBound) {
  const auto b = breakdown_of(judged_staged_case());
  ASSERT_TRUE(b);
  ASSERT_EQ(b->stages.size(), 5u);
  EXPECT_EQ(b->stages[b->bottleneck].name, "scores");
  EXPECT_EQ(b->bottleneck_reason, "scores: 38% of time, memory-bound at 62% of peak DRAM bandwidth");
  EXPECT_EQ(b->stages[0].bound, "compute");
  EXPECT_EQ(b->stages[2].bound, "");  // softmax: its cost was not known
  EXPECT_DOUBLE_EQ(b->stages_ns, 98000);
  EXPECT_NE(render_breakdown(*b).find("compute-bound at 40% of peak GFLOP/s"), std::string::npos);
}

// The stage bounds travel in the results: a results file read back (from another machine, or
// of a kernel this build does not have) prints the same breakdown.
TEST(ReportBreakdown, PrintsTheSameFromAResultsFileReadBack) {
  CaseResult c = judged_staged_case();
  c.kernel = "kernel_this_build_lacks";
  const auto before = breakdown_of(c);
  const auto after = breakdown_of(case_from_json(to_json(c)));
  ASSERT_TRUE(before && after);
  EXPECT_EQ(render_breakdown(*after), render_breakdown(*before));
  EXPECT_EQ(after->stages[1].pct_of_peak, 62);
  EXPECT_EQ(to_json(test::staged_case()).at("stages").at(1).contains("bound"), false);
}

TEST(ReportBreakdown, FallsBackToTheWholeCaseBoundWithoutStageBounds) {
  CaseResult c = test::staged_case();
  c.bound = "memory";
  c.bound_reason = "memory-bound at 62% of peak DRAM bandwidth";
  const auto b = breakdown_of(c);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bottleneck_reason,
            "scores: 38% of time (largest of 5 stages); the whole attention is memory-bound at 62% of peak "
            "DRAM bandwidth");
}

TEST(ReportBreakdown, LaunchOverheadAndGpuBusyFraction) {
  const auto b = breakdown_of(test::staged_case());
  ASSERT_TRUE(b);
  ASSERT_TRUE(b->launch_overhead_ns && b->gpu_busy_fraction && b->gaps_ns);
  EXPECT_DOUBLE_EQ(*b->launch_overhead_ns, 18000);  // host 120 µs - GPU 102 µs
  EXPECT_NEAR(*b->gpu_busy_fraction, 0.85, 1e-12);
  EXPECT_DOUBLE_EQ(*b->gaps_ns, 4000);  // GPU 102 µs - 98 µs inside stages
  EXPECT_EQ(describe_host_overhead(*b), "4.00 µs between dispatches, 18.0 µs launch overhead, GPU busy 85%");
  const std::string text = render_breakdown(*b);
  EXPECT_NE(text.find("scores"), std::string::npos);
  EXPECT_NE(text.find("<- bottleneck"), std::string::npos);
  EXPECT_NE(text.find("bottleneck: scores: 38% of time"), std::string::npos);
}

TEST(ReportBreakdown, NoStagesNoBreakdown) { EXPECT_FALSE(breakdown_of(test::mixed_run().cases[0])); }

TEST(ReportBreakdown, ComputeCeilingIsTheFmaPeakCase) {
  const RunResult run = test::mixed_run();
  // fma_peak: 2 * 16384 * 1024 flops in 400 µs.
  EXPECT_NEAR(peak_gflops_of(run), 2.0 * 16384 * 1024 / 400000, 1e-9);
}

}  // namespace
}  // namespace perfgate
