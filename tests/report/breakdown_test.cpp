#include "report/breakdown.h"

#include <gtest/gtest.h>

#include "perfgate/registry.h"
#include "report/report_fixture.h"

namespace perfgate {
namespace {

TEST(ReportBreakdown, NamesTheBottleneckStageWithItsBound) {
  const CaseResult c = test::staged_case();
  // scores moves 62% of the peak 100 GB/s for its 38 µs, at well under a flop per byte.
  StageCosts costs{{"scores", Cost{2356000 / 2.0, 2356000 / 2.0, 1e5}}, {"qkv", Cost{1e5, 1e5, 5e7}}};
  const auto b = breakdown_of(c, costs);
  ASSERT_TRUE(b);
  ASSERT_EQ(b->stages.size(), 5u);
  EXPECT_EQ(b->stages[b->bottleneck].name, "scores");
  EXPECT_EQ(b->bottleneck_reason, "scores: 38% of time, memory-bound at 62% of peak DRAM bandwidth");
  EXPECT_EQ(b->stages[0].bound, "compute");  // qkv: 250 flops per byte
  EXPECT_EQ(b->stages[2].bound, "");         // softmax: cost not given
  EXPECT_DOUBLE_EQ(b->stages_ns, 98000);
}

TEST(ReportBreakdown, ComputeBoundStageAgainstTheFmaPeak) {
  CaseResult c = test::staged_case();
  c.stages[1].latency_ns = 60000;                     // scores now dominates further
  StageCosts costs{{"scores", Cost{1e4, 1e4, 3e6}}};  // 150 flop/byte, 50 GFLOP/s
  const auto b = breakdown_of(c, costs, 200);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bottleneck_reason, "scores: 38% of time, compute-bound at 25% of peak GFLOP/s");
}

TEST(ReportBreakdown, FallsBackToTheWholeCaseBoundWithoutStageCosts) {
  CaseResult c = test::staged_case();
  c.bound = "memory";
  c.bound_reason = "memory-bound at 62% of peak DRAM bandwidth";
  const auto b = breakdown_of(c);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bottleneck_reason,
            "scores: 38% of time (largest of 5 stages); the whole attention is memory-bound at 62% of peak "
            "DRAM bandwidth");
}

TEST(ReportBreakdown, StageFarFromEveryCeilingIsLatencyBound) {
  CaseResult c = test::staged_case();
  // scores: 38 µs for 76 KB and 0.5 MFLOP: 2 GB/s (2% of 100) and 13 GFLOP/s (6.6% of 200).
  StageCosts costs{{"scores", Cost{38000, 38000, 5e5}}};
  const auto b = breakdown_of(c, costs, 200);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->stages[1].bound, "latency");
  EXPECT_EQ(b->bottleneck_reason,
            "scores: 38% of time, latency-bound: at 2.0% of peak DRAM bandwidth and 6.6% of peak GFLOP/s, too "
            "little work in flight to approach either ceiling (launch, barriers, a partial last wave or serial "
            "steps)");
}

TEST(ReportBreakdown, SmallStageIsJudgedAgainstTheCacheCeiling) {
  CaseResult c = test::staged_case();
  c.peaks = Peaks{100, 500, 32e6, 0};
  // 2.356 MB in 38 µs: 62 GB/s, inside a 32 MB cache of 500 GB/s.
  StageCosts costs{{"scores", Cost{2356000 / 2.0, 2356000 / 2.0, 0}}};
  const auto b = breakdown_of(c, costs);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->stages[1].reason, "memory-bound at 12% of peak cache bandwidth");
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

TEST(ReportBreakdown, StageCostsComeFromTheStageKernels) {
  const KernelDef* scores = find_kernel("attention_scores");
  if (!scores || !find_kernel("attention_layer")) GTEST_SKIP() << "the attention kernels are not linked in";
  CaseResult c = test::staged_case();
  c.kernel = "attention_layer";
  c.params = Params({{"seq", 128}, {"dmodel", 512}, {"heads", 8}});
  const StageCosts costs = stage_costs_from_registry(c);
  ASSERT_EQ(costs.size(), 5u);  // qkv, scores, softmax, weighted_sum, output
  EXPECT_DOUBLE_EQ(costs.at("scores").flops, scores->cost_of(c.params).flops);
  EXPECT_DOUBLE_EQ(costs.at("scores").bytes(), scores->cost_of(c.params).bytes());
  const auto b = breakdown_of(c, costs);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->stages[b->bottleneck].name, "scores");
  EXPECT_FALSE(b->stages[b->bottleneck].bound.empty());
  EXPECT_EQ(b->bottleneck_reason.rfind("scores: 38% of time, ", 0), 0u) << b->bottleneck_reason;
}

TEST(ReportBreakdown, StagesWithoutAKernelOfTheirOwnHaveNoCost) {
  CaseResult c = test::staged_case();
  c.kernel = "no_such_pipeline";
  EXPECT_TRUE(stage_costs_from_registry(c).empty());
}

}  // namespace
}  // namespace perfgate
