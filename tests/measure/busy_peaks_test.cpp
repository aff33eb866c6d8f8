// Peaks measured in a busy moment are told from quiet ones, on synthetic sample series.
#include "measure/busy_peaks.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/cpu_wait.h"

namespace perfgate {
namespace {

// A quiet machine: samples within a few % of one level, in any order.
std::vector<double> quiet(double level, int count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(0.96, 1.0);
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) samples.push_back(level * jitter(rng));
  return samples;
}

TEST(MeasureBusyPeaks, AQuietMeasurementRepeatsItself) {
  for (std::uint32_t seed = 1; seed <= 50; ++seed) {
    const Repetitions r = repetitions_of(quiet(25, 11, seed));
    EXPECT_GT(r.first, 24);
    EXPECT_GT(r.second, 24);
    EXPECT_FALSE(disagree(r)) << "seed " << seed;
  }
  EXPECT_EQ(busy_peaks_reason({.sweep = {{}, 0.01},
                               .dram = {repetitions_of(quiet(25, 8, 3)), 0.02},
                               .fma = {repetitions_of(quiet(186, 8, 4)), 0.0}}),
            "");
}

// The load came while DRAM's copy was measured (the CI machine's parallel builds start): the
// second half streams at a fraction of the first's.
TEST(MeasureBusyPeaks, LoadArrivingHalfwayMakesTheRepetitionsDisagree) {
  const std::vector<double> samples{24.5, 25, 24.8, 24.9, 25, 6, 5.9, 5.8, 6, 6};
  const Repetitions r = repetitions_of(samples);
  EXPECT_DOUBLE_EQ(r.first, 25);
  EXPECT_DOUBLE_EQ(r.second, 6);
  EXPECT_TRUE(disagree(r));
  EXPECT_EQ(busy_peaks_reason({.dram = {r, 0}}), "DRAM copy's two repetitions disagree: 25 and 6 GB/s");
  // Leaving works the same way.
  EXPECT_TRUE(disagree(repetitions_of(std::vector<double>(samples.rbegin(), samples.rend()))));
}

TEST(MeasureBusyPeaks, TheSweepsDisturbanceAndFmaAreNamedToo) {
  EXPECT_EQ(busy_peaks_reason({.sweep_disturbed = true, .fma = {{186, 40}, 0}}),
            "fma_peak's two repetitions disagree: 186 and 40 GFLOP/s; the cache sweep was disturbed");
  EXPECT_EQ(busy_peaks_reason({.sweep_disturbed = true}), "the cache sweep was disturbed");
}

// A load steady through the whole measurement: every dispatch waited alike (a fixed ~7 ms on the
// CI machine under a load of 3), so the repetitions agree and the sweep rises evenly with the
// working set; only the time the threads spent waiting for a core shows it.
TEST(MeasureBusyPeaks, ASteadyLoadIsToldByTheTimeSpentWaitingForACore) {
  const Repetitions dram = repetitions_of(quiet(11, 10, 5));
  const Repetitions fma = repetitions_of(quiet(34, 10, 6));
  EXPECT_FALSE(disagree(dram));
  EXPECT_EQ(busy_peaks_reason({.dram = {dram, 0.02}, .fma = {fma, 0.4}}),
            "fma_peak waited for a core 40% of its time");
  EXPECT_EQ(busy_peaks_reason({.sweep = {{}, 0.51}, .dram = {dram, 0.3}, .fma = {fma, 0}}),
            "DRAM copy waited for a core 30% of its time; the cache sweep waited for a core 51% of its time");
  EXPECT_EQ(busy_peaks_reason({.dram = {dram, kBusyCpuWaitShare}, .fma = {fma, 0.004}}), "");
}

// Too few samples to split, or a failed measurement (zeros): nothing claimed either way.
TEST(MeasureBusyPeaks, TooFewSamplesTellNothing) {
  EXPECT_FALSE(disagree(repetitions_of(std::vector<double>{25, 2, 25})));
  EXPECT_EQ(repetitions_of(std::vector<double>{25, 2, 25}).first, 0);
  EXPECT_FALSE(disagree(Repetitions{0, 25}));
  EXPECT_FALSE(disagree(Repetitions{}));
  // Just inside and just past the allowed difference.
  EXPECT_FALSE(disagree(Repetitions{100, 100 - kRepetitionsDisagreePct + 0.5}));
  EXPECT_TRUE(disagree(Repetitions{100 - kRepetitionsDisagreePct - 0.5, 100}));
}

// Provisional peaks serve for kProvisionalPeaksS, then are measured again; never from the future.
TEST(MeasureBusyPeaks, ProvisionalPeaksServeForMinutesNotForGood) {
  const double at = 1.8e9;
  EXPECT_TRUE(still_provisional(at, at));
  EXPECT_TRUE(still_provisional(at, at + kProvisionalPeaksS - 1));
  EXPECT_FALSE(still_provisional(at, at + kProvisionalPeaksS));
  EXPECT_FALSE(still_provisional(at, at + 86400));
  EXPECT_FALSE(still_provisional(at + 60, at));  // written "later" than now: the clock moved back
  EXPECT_FALSE(still_provisional(0, at));        // an old file without the time
}

}  // namespace
}  // namespace perfgate
