// The bisect search on seeded synthetic steps: each commit has a true latency level, and each
// probe is judged by the A/B rule on seeded rounds of its true ratio (judge/paired_verdict.h).
// A planted culprit is found within the build budget; a commit that does not build is skipped; an
// inconclusive step is measured again; two smaller regressions are named as two commits; a range
// with no slowdown ends after its two ends.
#include "judge/bisection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "judge/paired_verdict.h"
#include "judge/synthetic_rounds.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

// A range of `n` commits (good end first) with a true level per commit: `steps[i]` multiplies
// the level from commit i on.
struct SyntheticRange {
  std::vector<double> level;
  std::set<std::size_t> broken;                        // do not build
  std::set<std::size_t> unrelated;                     // change only documentation
  std::set<std::pair<std::size_t, int>> inconclusive;  // (commit, attempt) forced inconclusive
};

std::string bisect_sha(std::size_t i) { return "c" + std::to_string(i); }

SyntheticRange bisect_range(std::size_t n, std::vector<std::pair<std::size_t, double>> steps) {
  SyntheticRange r;
  double level = 1;
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& [at, factor] : steps)
      if (at == i) level *= factor;
    r.level.push_back(level);
  }
  return r;
}

struct BisectRun {
  Bisection bisection;
  std::vector<Probe> probes;
};

BisectRun run_bisect(const SyntheticRange& r, std::uint64_t seed, BisectionSettings settings = {}) {
  std::vector<BisectCommit> commits;
  for (std::size_t i = 0; i < r.level.size(); ++i)
    commits.push_back({bisect_sha(i), "commit " + std::to_string(i), r.unrelated.count(i) > 0});
  BisectRun run{Bisection(commits, settings), {}};
  std::map<std::size_t, int> attempts;
  while (auto probe = run.bisection.next()) {
    run.probes.push_back(*probe);
    BisectStep step{bisect_sha(probe->head), bisect_sha(probe->base)};
    const int attempt = attempts[probe->head]++;
    if (r.broken.count(probe->head)) {
      step.outcome = StepOutcome::skipped;
    } else if (r.inconclusive.count({probe->head, attempt})) {
      step.outcome = StepOutcome::inconclusive;
    } else {
      const double truth = r.level[probe->head] / r.level[probe->base];
      const auto j =
          judge_paired(test::synthetic_ratios(truth, 30, seed * 1000 + run.probes.size()), 5, 0.01);
      step.outcome = j.verdict == Verdict::regressed      ? StepOutcome::slower
                     : j.verdict == Verdict::inconclusive ? StepOutcome::inconclusive
                                                          : StepOutcome::not_slower;
      step.ratio = j.median_ratio;
      step.low = j.interval.low;
      step.high = j.interval.high;
    }
    run.bisection.record(step);
  }
  return run;
}

TEST(JudgeBisection, FindsAPlantedCulpritWithinTheBudget) {
  for (std::size_t planted = 1; planted < 16; ++planted)
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const BisectRun run = run_bisect(bisect_range(16, {{planted, 1.30}}), seed);
      ASSERT_EQ(run.bisection.end(), BisectEnd::found) << "planted " << planted;
      ASSERT_EQ(run.bisection.culprits().size(), 1u);
      const Culprit& c = run.bisection.culprits()[0];
      EXPECT_EQ(c.index, planted);
      EXPECT_TRUE(c.exact());
      EXPECT_NEAR(c.step.ratio, 1.30, 0.05);
      // Both ends and at most ceil(log2(15)) = 4 commits between.
      EXPECT_LE(run.bisection.builds(), 6) << "planted " << planted;
    }
}

TEST(JudgeBisection, NoSlowdownEndsAfterBothEnds) {
  const BisectRun run = run_bisect(bisect_range(16, {}), 4);
  EXPECT_EQ(run.bisection.end(), BisectEnd::none_slower);
  EXPECT_EQ(run.bisection.builds(), 2);
  EXPECT_TRUE(run.bisection.culprits().empty());
  ASSERT_TRUE(run.bisection.total());
  EXPECT_EQ(run.bisection.total()->outcome, StepOutcome::not_slower);
}

TEST(JudgeBisection, SkipsACommitThatDoesNotBuild) {
  SyntheticRange r = bisect_range(16, {{11, 1.30}});
  r.broken = {8};  // the first commit the search measures
  const BisectRun run = run_bisect(r, 5);
  EXPECT_EQ(run.probes[1], (Probe{8, 0}));
  ASSERT_EQ(run.bisection.end(), BisectEnd::found);
  EXPECT_EQ(run.bisection.culprits()[0].index, 11u);
  EXPECT_TRUE(run.bisection.culprits()[0].exact());
  EXPECT_LE(run.bisection.builds(), 7);
}

TEST(JudgeBisection, ASkippedCommitBeforeTheCulpritLeavesBothNamed) {
  SyntheticRange r = bisect_range(16, {{9, 1.30}});
  r.broken = {8};
  const BisectRun run = run_bisect(r, 6);
  ASSERT_EQ(run.bisection.end(), BisectEnd::found);
  const Culprit& c = run.bisection.culprits()[0];
  EXPECT_EQ(c.index, 9u);
  EXPECT_FALSE(c.exact());
  EXPECT_EQ(c.candidates, (std::vector<std::size_t>{8, 9}));
}

TEST(JudgeBisection, UnrelatedCommitsAreNeverMeasured) {
  SyntheticRange r = bisect_range(16, {{9, 1.30}});
  r.unrelated = {2, 3, 5, 6, 10, 12, 13};
  const BisectRun run = run_bisect(r, 7);
  ASSERT_EQ(run.bisection.end(), BisectEnd::found);
  EXPECT_EQ(run.bisection.culprits()[0].index, 9u);
  for (const Probe& p : run.probes) EXPECT_FALSE(r.unrelated.count(p.head)) << p.head;
  EXPECT_LE(run.bisection.builds(), 5);  // 8 commits that may differ: both ends and 3 between
}

TEST(JudgeBisection, AnInconclusiveStepIsMeasuredAgain) {
  SyntheticRange r = bisect_range(16, {{3, 1.30}});
  r.inconclusive = {{8, 0}};  // the first measurement of the first commit between
  const BisectRun run = run_bisect(r, 8);
  EXPECT_EQ(run.probes[1], (Probe{8, 0}));
  EXPECT_EQ(run.probes[2], (Probe{8, 0}));  // measured again, no new build
  ASSERT_EQ(run.bisection.end(), BisectEnd::found);
  EXPECT_EQ(run.bisection.culprits()[0].index, 3u);
  EXPECT_LE(run.bisection.builds(), 6);
}

TEST(JudgeBisection, AStepInconclusivePastItsBudgetIsSetAside) {
  SyntheticRange r = bisect_range(16, {{12, 1.30}});
  r.inconclusive = {{8, 0}, {8, 1}, {8, 2}};
  const BisectRun run = run_bisect(r, 9, {.max_builds = 12, .remeasure = 2});
  ASSERT_EQ(run.bisection.end(), BisectEnd::found);
  EXPECT_EQ(run.bisection.culprits()[0].index, 12u);
  int measured_8 = 0;
  for (const Probe& p : run.probes) measured_8 += p.head == 8;
  EXPECT_EQ(measured_8, 3);
}

TEST(JudgeBisection, TwoSmallerRegressionsAreNamedAsTwoCommits) {
  const BisectRun run = run_bisect(bisect_range(16, {{4, 1.15}, {11, 1.15}}), 10);
  ASSERT_EQ(run.bisection.end(), BisectEnd::found);
  ASSERT_EQ(run.bisection.culprits().size(), 2u);
  EXPECT_EQ(run.bisection.culprits()[0].index, 4u);
  EXPECT_EQ(run.bisection.culprits()[1].index, 11u);
  EXPECT_EQ(run.bisection.culprits()[1].base, 4u);  // the second found against the first
  EXPECT_NEAR(culprits_ratio(run.bisection.culprits()), 1.15 * 1.15, 0.08);
  EXPECT_NEAR(run.bisection.total()->ratio, 1.15 * 1.15, 0.08);
}

TEST(JudgeBisection, StopsAtTheBuildBudget) {
  const BisectRun run = run_bisect(bisect_range(32, {{20, 1.30}}), 11, {.max_builds = 4, .remeasure = 2});
  EXPECT_EQ(run.bisection.end(), BisectEnd::out_of_builds);
  EXPECT_EQ(run.bisection.builds(), 4);
  const auto [lo, hi] = run.bisection.range();
  EXPECT_LT(lo, 20u);
  EXPECT_GE(hi, 20u);
}

TEST(JudgeBisection, AGoodEndThatDoesNotBuildEndsIt) {
  Bisection b({{"a", "good"}, {"b", "bad"}}, {});
  BisectStep step{"b", "a"};
  step.base_failed = true;
  b.record(step);
  EXPECT_EQ(b.end(), BisectEnd::good_unusable);
  EXPECT_FALSE(b.next());
}

TEST(JudgeBisection, RefusesAStepOfAnotherProbe) {
  Bisection b({{"a", "good"}, {"b", "x"}, {"c", "bad"}}, {});
  EXPECT_THROW(b.record(BisectStep{"b", "a"}), Error);
}

}  // namespace
}  // namespace perfgate
