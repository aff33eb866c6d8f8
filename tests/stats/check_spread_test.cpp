// The spread a calibrated check's rounds show: known values and seeded quiet and loaded rounds.
#include "stats/check_spread.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace perfgate {
namespace {

TEST(CheckSpread, RobustSpreadOfKnownValues) {
  // median 3, absolute deviations {2, 1, 0, 1, 2}: MAD 1, so 1.4826 / 3.
  const std::vector<double> v = {1, 2, 3, 4, 5};
  EXPECT_NEAR(robust_spread_pct(v), 100 * 1.4826 / 3, 1e-9);
  // One wild round does not move it: the same with 5 replaced by 500.
  const std::vector<double> wild = {1, 2, 3, 4, 500};
  EXPECT_NEAR(robust_spread_pct(wild), 100 * 1.4826 / 3, 1e-9);
  EXPECT_EQ(robust_spread_pct(std::vector<double>{}), 0);
  EXPECT_EQ(robust_spread_pct(std::vector<double>{7}), 0);
  EXPECT_EQ(robust_spread_pct(std::vector<double>{0, 0, 0}), 0);
}

// Rounds of a calibrated check: the machine's state this round (a factor both the reference and
// the case see) times each side's own jitter.
struct Rounds {
  std::vector<double> case_ns, reference_ns, relative;
};
Rounds rounds(double machine_sigma, double own_sigma, std::uint64_t seed, int n = 60) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> machine(0, machine_sigma), own(0, own_sigma);
  Rounds r;
  for (int i = 0; i < n; ++i) {
    const double state = machine(rng);
    r.reference_ns.push_back(1e6 * state * own(rng));
    r.case_ns.push_back(2e6 * state * own(rng));
    r.relative.push_back(r.case_ns.back() / r.reference_ns.back());
  }
  return r;
}

TEST(CheckSpread, QuietAndLoadedRoundsDiffer) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Rounds quiet = rounds(0.01, 0.005, seed);
    const Rounds loaded = rounds(0.25, 0.08, seed);
    const CheckSpread q = check_spread(quiet.case_ns, quiet.reference_ns, quiet.relative);
    const CheckSpread l = check_spread(loaded.case_ns, loaded.reference_ns, loaded.relative);
    EXPECT_EQ(q.rounds, 60);
    EXPECT_LT(q.pct(), 2.5) << "seed " << seed;
    EXPECT_GT(l.pct(), 15) << "seed " << seed;
    // The machine's state cancels in the ratio: the case and the reference scatter, the ratio less.
    EXPECT_LT(l.relative_pct, l.reference_pct) << "seed " << seed;
    EXPECT_DOUBLE_EQ(l.pct(), std::max({l.case_pct, l.reference_pct, l.relative_pct}));
  }
}

// A case timed alone has only its own times: their spread is the whole spread, marked raw.
TEST(CheckSpread, ACaseTimedAloneSpreadsAsItsOwnTimes) {
  const std::vector<double> v = {1, 2, 3, 4, 5};
  const CheckSpread alone = check_spread_alone(v);
  EXPECT_TRUE(alone.raw);
  EXPECT_EQ(alone.rounds, 5);
  EXPECT_NEAR(alone.pct(), 100 * 1.4826 / 3, 1e-9);
  EXPECT_EQ(alone.reference_pct, 0);
  EXPECT_FALSE(check_spread(v, v, v).raw);
  EXPECT_EQ(check_spread_alone(std::vector<double>{}).rounds, 0);
}

TEST(CheckSpread, NothingMeasuredIsNoRounds) {
  const std::vector<double> some = {1, 2, 3};
  EXPECT_EQ(check_spread(some, {}, some).rounds, 0);
  EXPECT_EQ(check_spread(some, {}, some).pct(), 0);
}

TEST(CheckSpread, LoadIsASpreadOverTwiceTheBaselines) {
  CheckSpread s;
  s.case_pct = 5;
  s.relative_pct = 4;
  EXPECT_DOUBLE_EQ(s.load_pct(), 5);  // no baseline spread known: all of it
  s.baseline_pct = 2.4;
  EXPECT_DOUBLE_EQ(s.load_pct(), 5);
  s.baseline_pct = 2.5;
  EXPECT_DOUBLE_EQ(s.load_pct(), 0);
  s.baseline_pct = 8;  // quieter than its baseline
  EXPECT_DOUBLE_EQ(s.load_pct(), 0);
}

}  // namespace
}  // namespace perfgate
