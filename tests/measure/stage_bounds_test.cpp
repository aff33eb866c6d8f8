// Each stage's bound, judged when the case is measured: from its own kernel's cost, its median
// time and the case's ceilings.
#include "measure/stage_bounds.h"

#include <gtest/gtest.h>

#include "measure/measure_case.h"
#include "perfgate/registry.h"
#include "report/report_fixture.h"

namespace perfgate {
namespace {

const Peaks kDram{100, 0, 0, 200};  // 100 GB/s, no cache ceiling, 200 GFLOP/s

TEST(MeasureStageBounds, EachStageWithACostGetsItsBound) {
  CaseResult c = test::staged_case();
  // scores moves 62% of the peak 100 GB/s for its 38 µs, at well under a flop per byte.
  const StageCosts costs{{"scores", Cost{2356000 / 2.0, 2356000 / 2.0, 1e5}}, {"qkv", Cost{1e5, 1e5, 5e7}}};
  classify_stages(c, costs, kDram);
  EXPECT_EQ(c.stages[1].bound, "memory");
  EXPECT_EQ(c.stages[1].bound_reason, "memory-bound at 62% of peak DRAM bandwidth");
  EXPECT_NEAR(c.stages[1].pct_of_peak, 62, 0.1);
  EXPECT_EQ(c.stages[0].bound, "compute");  // qkv: 250 flops per byte
  EXPECT_EQ(c.stages[2].bound, "");         // softmax: cost not given
  EXPECT_EQ(c.stages[2].bound_reason, "");
}

TEST(MeasureStageBounds, ComputeBoundStageAgainstTheFmaPeak) {
  CaseResult c = test::staged_case();
  classify_stages(c, {{"scores", Cost{1e4, 1e4, 3e6}}}, kDram);  // 150 flop/byte, 79 GFLOP/s
  EXPECT_EQ(c.stages[1].bound_reason, "compute-bound at 39% of peak GFLOP/s");
}

TEST(MeasureStageBounds, StageFarFromEveryCeilingIsLatencyBound) {
  CaseResult c = test::staged_case();
  // scores: 38 µs for 76 KB and 0.5 MFLOP: 2 GB/s (2% of 100) and 13 GFLOP/s (6.6% of 200).
  classify_stages(c, {{"scores", Cost{38000, 38000, 5e5}}}, kDram);
  EXPECT_EQ(c.stages[1].bound, "latency");
  EXPECT_EQ(
      c.stages[1].bound_reason,
      "latency-bound: at 2.0% of peak DRAM bandwidth and 6.6% of peak GFLOP/s, too little work in flight "
      "to approach either ceiling (launch, barriers, a partial last wave or serial steps)");
}

TEST(MeasureStageBounds, SmallStageIsJudgedAgainstTheCacheCeiling) {
  CaseResult c = test::staged_case();
  // 2.356 MB in 38 µs: 62 GB/s, inside a 32 MB cache of 500 GB/s.
  classify_stages(c, {{"scores", Cost{2356000 / 2.0, 2356000 / 2.0, 0}}}, Peaks{100, 500, 32e6, 0});
  EXPECT_EQ(c.stages[1].bound_reason, "memory-bound at 12% of peak cache bandwidth");
}

TEST(MeasureStageBounds, StageCostsComeFromTheStageKernels) {
  const KernelDef* scores = find_kernel("attention_scores");
  if (!scores || !find_kernel("attention_layer")) GTEST_SKIP() << "the attention kernels are not linked in";
  CaseResult c = test::staged_case();
  c.kernel = "attention_layer";
  c.params = Params({{"seq", 128}, {"dmodel", 512}, {"heads", 8}});
  const StageCosts costs = stage_costs_from_registry(c);
  ASSERT_EQ(costs.size(), 5u);  // qkv, scores, softmax, weighted_sum, output
  EXPECT_DOUBLE_EQ(costs.at("scores").flops, scores->cost_of(c.params).flops);
  EXPECT_DOUBLE_EQ(costs.at("scores").bytes(), scores->cost_of(c.params).bytes());
  // derive_metrics, which every measurement ends with, judges the stages with the case.
  derive_metrics(c, kDram);
  for (const StageTiming& s : c.stages) EXPECT_FALSE(s.bound.empty()) << s.name;
}

TEST(MeasureStageBounds, StagesWithoutAKernelOfTheirOwnHaveNoCost) {
  CaseResult c = test::staged_case();
  c.kernel = "no_such_pipeline";
  EXPECT_TRUE(stage_costs_from_registry(c).empty());
}

}  // namespace
}  // namespace perfgate
