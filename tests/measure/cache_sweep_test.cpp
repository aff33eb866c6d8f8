// The effective last-level cache from synthetic copy sweeps: where bandwidth falls to DRAM's.
#include "measure/cache_sweep.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace perfgate {
namespace {

constexpr double MiB = 1 << 20;

// Working sets from 1 MiB doubling, with the bandwidths given.
std::vector<SweepPoint> sweep_of(std::vector<double> gbps) {
  std::vector<SweepPoint> sweep;
  double bytes = MiB;
  for (double g : gbps) {
    sweep.push_back({bytes, g});
    bytes *= 2;
  }
  return sweep;
}

// A 2-vCPU VM: the guest's share of the host's cache holds 8 to 32 MiB, DRAM streams 20 GB/s,
// and the size it reports (hundreds of MiB) plays no part.
TEST(MeasureCacheSweep, TheCacheEndsWhereBandwidthFallsToDram) {
  //                                1   2   4   8   16  32  64  128 MiB
  const CacheEstimate e = estimate_cache(sweep_of({55, 60, 58, 57, 40, 25, 20, 20}), 20);
  EXPECT_DOUBLE_EQ(e.cache_bandwidth_gbps, 60);
  // 25 GB/s at 32 MiB, 20 at 64: 22 GB/s (1.1 x DRAM) is crossed 3/5 of the way, in log size.
  EXPECT_NEAR(e.cache_bytes, 32 * MiB * std::pow(2.0, 0.6), 1);
}

TEST(MeasureCacheSweep, NoStepAboveDramMeansNothingIsInCache) {
  const CacheEstimate e = estimate_cache(sweep_of({20.5, 21, 20, 19.5, 20}), 20);
  EXPECT_EQ(e.cache_bytes, 0);
  EXPECT_EQ(e.cache_bandwidth_gbps, 0);
  EXPECT_EQ(estimate_cache({}, 20).cache_bytes, 0);
  EXPECT_EQ(estimate_cache(sweep_of({60, 20}), 0).cache_bytes, 0);  // DRAM unknown
}

// A point above the in-cache level past the knee is a busy moment, not a second cache.
TEST(MeasureCacheSweep, ANoisyPointPastTheKneeIsNotASecondCache) {
  const CacheEstimate e = estimate_cache(sweep_of({60, 60, 20, 20, 35, 20}), 20);
  EXPECT_GT(e.cache_bytes, 2 * MiB);
  EXPECT_LT(e.cache_bytes, 4 * MiB);
}

// Small working sets dominated by launch cost (llvmpipe: tens of µs a dispatch) are slower
// than the plateau; the cache still ends where the plateau falls.
TEST(MeasureCacheSweep, LaunchBoundSmallPointsDoNotEndTheCache) {
  const CacheEstimate e = estimate_cache(sweep_of({4, 9, 18, 30, 31, 10.5, 10}), 10);
  EXPECT_DOUBLE_EQ(e.cache_bandwidth_gbps, 31);
  EXPECT_GT(e.cache_bytes, 16 * MiB);
  EXPECT_LT(e.cache_bytes, 32 * MiB);
}

// Measured while the cores were busy: dispatches waited for a core, and bandwidth grows with
// the working set as a fixed wait is spread over more bytes. Nothing is derived from it.
TEST(MeasureCacheSweep, ASweepFarBelowDramPastItsBestPointIsDisturbed) {
  //                                      1   2   4     8     16   32 64 MiB
  const CacheEstimate e = estimate_cache(sweep_of({37, 60, 0.02, 0.05, 0.6, 5, 5.4}), 5.2);
  EXPECT_TRUE(e.disturbed);
  EXPECT_EQ(e.cache_bytes, 0);
  EXPECT_FALSE(estimate_cache(sweep_of({55, 60, 58, 57, 40, 25, 20, 20}), 20).disturbed);
}

TEST(MeasureCacheSweep, StillInCacheAtTheLargestPointAndInAnyOrder) {
  std::vector<SweepPoint> sweep = sweep_of({50, 60, 55, 45});
  std::swap(sweep[0], sweep[3]);
  const CacheEstimate e = estimate_cache(sweep, 20);
  EXPECT_DOUBLE_EQ(e.cache_bytes, 8 * MiB);
  EXPECT_DOUBLE_EQ(e.cache_bandwidth_gbps, 60);
}

// The sweep stops once bandwidth has fallen past the knee: larger working sets change nothing.
TEST(MeasureCacheSweep, TheSweepStopsPastTheKnee) {
  //                                          1   2   4   8   16  32 MiB
  std::vector<SweepPoint> sweep = sweep_of({55, 60, 58, 57, 40, 21});
  EXPECT_TRUE(sweep_past_knee(sweep, 20));
  const CacheEstimate stopped = estimate_cache(sweep, 20);
  sweep.push_back({64 * MiB, 20});
  sweep.push_back({128 * MiB, 30});  // noise past the knee
  EXPECT_DOUBLE_EQ(estimate_cache(sweep, 20).cache_bytes, stopped.cache_bytes);
  // Still on the plateau, or never on it (all at DRAM's level, no knee to pass), or DRAM unknown.
  EXPECT_FALSE(sweep_past_knee(sweep_of({55, 60, 58, 40}), 20));
  EXPECT_FALSE(sweep_past_knee(sweep_of({20, 21, 20}), 20));
  EXPECT_FALSE(sweep_past_knee(sweep_of({60, 20}), 0));
  EXPECT_FALSE(sweep_past_knee(sweep_of({10}), 20));
  // A busy moment's dip below DRAM ends it too, and estimate_cache then calls it disturbed.
  const std::vector<SweepPoint> busy = sweep_of({55, 60, 0.05});
  EXPECT_TRUE(sweep_past_knee(busy, 20));
  EXPECT_TRUE(estimate_cache(busy, 20).disturbed);
}

}  // namespace
}  // namespace perfgate
