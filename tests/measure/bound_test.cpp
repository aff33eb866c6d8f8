#include "measure/bound.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

const Peaks kPeaks{100, 400, 32e6, 1000};  // DRAM 100 GB/s, cache 400 GB/s, 1000 GFLOP/s

TEST(MeasureBound, InCacheWorkingSetsAreJudgedAgainstTheCache) {
  EXPECT_DOUBLE_EQ(bandwidth_ceiling_gbps(kPeaks, true), 400);
  EXPECT_DOUBLE_EQ(bandwidth_ceiling_gbps(kPeaks, false), 100);
  // No cache ceiling measured: DRAM's for every working set.
  EXPECT_DOUBLE_EQ(bandwidth_ceiling_gbps(Peaks{100, 0, 32e6, 1000}, true), 100);
}

TEST(MeasureBound, RidgePointNamesTheRoofNearAnyCeiling) {
  // 8 MB in 40 µs = 200 GB/s: 50% of the cache's roof, at 0.25 flop/byte.
  const BoundCall memory = classify_bound(Cost{4e6, 4e6, 2e6}, 40000, true, kPeaks);
  EXPECT_EQ(memory.bound, "memory");
  EXPECT_NEAR(memory.pct_of_peak, 50, 1e-9);
  EXPECT_EQ(memory.reason, "memory-bound at 50% of peak cache bandwidth");
  // The same kernel out of cache: 200% of DRAM's roof would be a wrong ceiling; in the ridge
  // test DRAM's lower roof moves the ridge to 10 flop/byte.
  const BoundCall compute = classify_bound(Cost{1e6, 0, 5e8}, 1e6, false, kPeaks);  // 500 GFLOP/s
  EXPECT_EQ(compute.bound, "compute");
  EXPECT_EQ(compute.reason, "compute-bound at 50% of peak GFLOP/s");
}

TEST(MeasureBound, FarFromEveryCeilingIsLatency) {
  // 1 MB and 1 MFLOP in 100 µs: 10 GB/s (2.5% of the cache) and 10 GFLOP/s (1%).
  const BoundCall call = classify_bound(Cost{5e5, 5e5, 1e6}, 100000, true, kPeaks);
  EXPECT_EQ(call.bound, "latency");
  EXPECT_NEAR(call.pct_of_peak, 2.5, 1e-9);
  EXPECT_NE(call.reason.find("at 2.5% of peak cache bandwidth and 1.0% of peak GFLOP/s"), std::string::npos)
      << call.reason;
  // Just above the line on one ceiling is that ceiling's bound again.
  EXPECT_EQ(classify_bound(Cost{5e5, 5e5, 1e6}, 24000, true, kPeaks).bound, "memory");  // 10.4%
}

TEST(MeasureBound, UnknownCeilingsOrTimeFallBackToTheRidgeRule) {
  EXPECT_EQ(classify_bound(Cost{}, 1000, false, kPeaks).bound, "");
  // Not measured: no latency call, however small the kernel.
  EXPECT_EQ(classify_bound(Cost{5e5, 5e5, 1e6}, 0, true, kPeaks).bound, "memory");
  // No ceilings: below one flop per byte is memory.
  EXPECT_EQ(classify_bound(Cost{4, 4, 4}, 1000, false, Peaks{}).bound, "memory");
  EXPECT_EQ(classify_bound(Cost{4, 4, 64}, 1000, false, Peaks{}).bound, "compute");
}

}  // namespace
}  // namespace perfgate
