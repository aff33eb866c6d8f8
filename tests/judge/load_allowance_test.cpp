// The allowance of a calibrated case follows how busy the machine was during the check: seeded
// synthetic rounds of a quiet and a loaded check against the same baseline.
#include "judge/load_allowance.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <vector>

#include "judge/judge_case.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

// `metric` allowed at least `least_pct` (a floor, or a fixed max_regression_pct), following the
// load at 1.5 x the check's spread up to `cap`.
Thresholds following_load(const std::string& metric, double least_pct, bool fixed, double cap) {
  Thresholds t;
  MetricThreshold& m = t.metrics[metric];
  (fixed ? m.max_regression_pct : m.min_allowed_pct) = least_pct;
  m.load_factor = 1.5;
  m.load_max_pct = cap;
  return t;
}

// A shared machine's thresholds as shipped for cpu-*: floor 5%, 1.5 x the check's spread, at most 60%.
Thresholds shared_machine() { return following_load(metric::relative_latency, 5, false, 60); }

// A calibrated check's rounds: the machine's state this round (both sides see it) times each
// side's own jitter; the case's time is `ratio` x the reference's.
void add_rounds(CaseResult& r, double ratio, double machine_sigma, double own_sigma, std::uint64_t seed,
                int n = 60) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> machine(0, machine_sigma), own(0, own_sigma);
  auto& case_ns = r.metrics[metric::latency_ns].samples;
  auto& reference_ns = r.metrics[metric::reference_latency_ns].samples;
  auto& relative = r.metrics[metric::relative_latency].samples;
  for (int i = 0; i < n; ++i) {
    const double state = machine(rng);
    reference_ns.push_back(1e6 * state * own(rng));
    case_ns.push_back(ratio * 1e6 * state * own(rng));
    relative.push_back(case_ns.back() / reference_ns.back());
  }
}

// `own_sigma`: each side's jitter in the baseline's rounds.
BaselineCase baseline(std::uint64_t seed, double own_sigma = 0.005, int rounds = 60) {
  BaselineCase b;
  b.periods = 2;  // a merge of two proposals: its moves between periods measured
  b.id = "copy/cpu/n=1048576";
  for (int run = 0; run < 5; ++run) {
    CaseResult one;
    add_rounds(one, 1.0, 0.01, own_sigma, seed * 10 + run, rounds);
    for (const auto& [name, m] : one.metrics) b.runs[name].push_back(m.samples);
  }
  return b;
}

CaseResult check(double ratio, double machine_sigma, double own_sigma, std::uint64_t seed, int rounds = 60) {
  CaseResult r;
  r.id = "copy/cpu/n=1048576";
  add_rounds(r, ratio, machine_sigma, own_sigma, seed, rounds);
  return r;
}

// A quiet and a loaded check of a case `ratio` x its baseline's, judged.
struct QuietAndLoaded {
  CaseResult quiet, loaded;
};
QuietAndLoaded judged_pair(double ratio, std::uint64_t seed) {
  const BaselineCase b = baseline(seed);
  QuietAndLoaded out{check(ratio, 0.01, 0.005, 100 + seed), check(ratio, 0.20, 0.05, 200 + seed)};
  judge_against(out.quiet, b, shared_machine(), Fingerprint{});
  judge_against(out.loaded, b, shared_machine(), Fingerprint{});
  return out;
}

const Judgement& judgement_of(const CaseResult& r, const std::string& metric) {
  for (const auto& j : r.judgements)
    if (j.metric == metric) return j;
  ADD_FAILURE() << "no " << metric << " judgement: " << r.message;
  static const Judgement none;
  return none;
}
const Judgement& relative(const CaseResult& r) { return judgement_of(r, metric::relative_latency); }

TEST(LoadAllowance, QuietAndLoadedChecksGetDifferentAllowances) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto [quiet, loaded] = judged_pair(1.0, seed);
    const Judgement& q = relative(quiet);
    const Judgement& l = relative(loaded);
    // Quiet: the floor, and the reason says what the check saw.
    EXPECT_DOUBLE_EQ(q.threshold_pct, 5) << q.reason;
    EXPECT_EQ(q.threshold_source, "floor");
    EXPECT_NE(q.reason.find("this check's spread"), std::string::npos) << q.reason;
    // Loaded: 1.5 x the spread its rounds showed, named as the load.
    EXPECT_EQ(l.threshold_source, "load") << l.reason;
    EXPECT_GT(l.threshold_pct, 20) << l.reason;
    EXPECT_LT(l.threshold_pct, 60) << l.reason;
    EXPECT_EQ(quiet.verdict, Verdict::pass) << quiet.message;
    EXPECT_EQ(loaded.verdict, Verdict::pass) << loaded.message;
  }
}

TEST(LoadAllowance, QuietCheckCatchesWhatALoadedOneLetsThrough) {
  int quiet_caught = 0, loaded_caught = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto [quiet, loaded] = judged_pair(1.12, seed);
    quiet_caught += quiet.verdict == Verdict::regressed;
    loaded_caught += loaded.verdict == Verdict::regressed;
  }
  EXPECT_EQ(quiet_caught, 20);
  EXPECT_EQ(loaded_caught, 0);
}

TEST(LoadAllowance, FloorHoldsOnAQuietMachine) {
  // 3% worse on a check quieter than the baseline: under the 5% floor, never a regression.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CaseResult r = check(1.03, 0.002, 0.001, 500 + seed);
    judge_against(r, baseline(seed), shared_machine(), Fingerprint{});
    EXPECT_DOUBLE_EQ(relative(r).threshold_pct, 5);
    EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  }
}

// Rounds that spread as much as the baseline's own did say nothing about load: a case whose
// rounds jitter 6% each side (copy n=2^25 on the quiet 2-core VM) keeps its floor or its noise's
// allowance and catches 10% more work, which 1.5 x its whole spread (~13%) let through; a loaded
// check of it still gets the load's allowance.
TEST(LoadAllowance, OnlyTheSpreadBeyondTheBaselinesIsLoad) {
  int caught = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const BaselineCase b = baseline(seed, 0.06, 200);
    CaseResult same = check(1.0, 0.01, 0.06, 1200 + seed, 200);
    CaseResult slower = check(1.10, 0.01, 0.06, 1300 + seed, 200);
    CaseResult loaded = check(1.0, 0.20, 0.06, 1400 + seed, 200);
    for (CaseResult* r : {&same, &slower, &loaded}) judge_against(*r, b, shared_machine(), Fingerprint{});
    EXPECT_EQ(same.verdict, Verdict::pass) << same.message;
    EXPECT_LT(relative(same).threshold_pct, 10) << relative(same).reason;
    EXPECT_NE(relative(same).reason.find("within 2 x its baseline's"), std::string::npos) << relative(same).reason;
    caught += slower.verdict == Verdict::regressed;
    EXPECT_EQ(relative(loaded).threshold_source, "load") << relative(loaded).reason;
    EXPECT_GT(relative(loaded).threshold_pct, 20) << relative(loaded).reason;
    EXPECT_EQ(loaded.verdict, Verdict::pass) << loaded.message;
  }
  EXPECT_GE(caught, 19);
}

// A baseline proposed while the machine was busy says nothing about a quiet check's jitter: its
// rounds' spread does not excuse a check's (beside a parallel build, a baseline whose rounds
// spread 100% once let a check spreading 110% count as unloaded).
TEST(LoadAllowance, ABusyBaselinesSpreadIsNoMeasureOfQuiet) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    BaselineCase b = baseline(seed, 0.3);
    CaseResult loaded = check(1.0, 0.3, 0.3, 1500 + seed);
    CaseResult busy_baseline = loaded;
    judge_against(loaded, b, shared_machine(), Fingerprint{});
    EXPECT_NE(relative(loaded).reason.find("within 2 x its baseline's"), std::string::npos)
        << relative(loaded).reason;
    b.cpu_wait_share = 0.9;
    judge_against(busy_baseline, b, shared_machine(), Fingerprint{});
    EXPECT_EQ(relative(busy_baseline).reason.find("x its baseline's"), std::string::npos)
        << relative(busy_baseline).reason;
    // Its rounds' spread excuses nothing; what it allows comes from this check's load, or from
    // how little its own jittery runs' medians are known (stats/run_noise.h), never the floor.
    EXPECT_NE(relative(busy_baseline).threshold_source, "floor") << relative(busy_baseline).reason;
  }
}

TEST(LoadAllowance, CapHoldsOnAVeryBusyMachine) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CaseResult r = check(1.0, 0.9, 0.3, 600 + seed);
    judge_against(r, baseline(seed), shared_machine(), Fingerprint{});
    const Judgement& j = relative(r);
    EXPECT_DOUBLE_EQ(j.threshold_pct, 60) << j.reason;
    EXPECT_EQ(j.threshold_source, "load");
    EXPECT_NE(j.reason.find("at most load_max_pct 60%"), std::string::npos) << j.reason;
  }
}

// A check whose own spread calls for more than the cap cannot tell a change past the cap from the
// load: it is too busy to judge, either way (inconclusive, measured again by the gate). One that
// is loaded but within the cap still catches twice the work.
TEST(LoadAllowance, PastTheCapTheCheckIsTooBusyToJudge) {
  int too_busy = 0, passed = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    for (double ratio : {1.0, 2.0, 3.0}) {
      CaseResult r = check(ratio, 0.9, 0.3, 600 + seed);
      judge_against(r, baseline(seed), shared_machine(), Fingerprint{});
      EXPECT_NE(r.verdict, Verdict::regressed) << r.message;
      EXPECT_NE(r.verdict, Verdict::improved) << r.message;
      if (r.verdict == Verdict::inconclusive) {
        ++too_busy;
        EXPECT_NE(r.message.find("too busy to judge: this check's spread calls for"), std::string::npos)
            << r.message;
      }
      passed += r.verdict == Verdict::pass;
    }
  }
  EXPECT_GT(too_busy, 30);  // 2x and 3x past the cap, and A/A where the load carried it past
  int caught = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CaseResult twice = check(2.0, 0.15, 0.05, 700 + seed);
    judge_against(twice, baseline(seed), shared_machine(), Fingerprint{});
    EXPECT_LT(relative(twice).threshold_pct, 60) << relative(twice).reason;
    caught += twice.verdict == Verdict::regressed;
  }
  EXPECT_EQ(caught, 20);
}

// A check whose ratio steps up part way through (a drift the load's spread does not show: most
// rounds sit at one level or the other) is allowed 1.5 x its drift at most up to load_max_pct;
// past that it is too busy to judge, never allowed the whole drift (which once let 256% pass).
TEST(LoadAllowance, ADriftPastTheCapIsTooBusyToJudge) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CaseResult r;
    r.id = "copy/cpu/n=1048576";
    add_rounds(r, 1.0, 0.01, 0.005, 800 + seed, 20);
    add_rounds(r, 2.0, 0.01, 0.005, 900 + seed, 40);  // median +100%, a drift of half of it
    judge_against(r, baseline(seed), shared_machine(), Fingerprint{});
    const Judgement& j = relative(r);
    EXPECT_LE(j.threshold_pct, 60) << j.reason;
    EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
    EXPECT_TRUE(j.too_busy) << j.reason;
    EXPECT_NE(j.reason.find("this run drifted"), std::string::npos) << j.reason;
    EXPECT_NE(j.reason.find("this check's drift calls for"), std::string::npos) << j.reason;
  }
}

// A steady load (a busy loop on one of two cores) slows every round alike: the rounds agree, so
// their spread allows little, while the case and its reference are slowed by different amounts.
// The threads' waiting for cores says so: the allowance covers what it could stretch the check
// by, and past load_max_pct the check is too busy to judge. Quiet waiting changes nothing.
TEST(LoadAllowance, ASteadyLoadShowsInTheThreadsWaiting) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const BaselineCase b = baseline(seed);
    // +35% read beside a busy loop by an A/A check whose threads waited 60% of the time.
    CaseResult steady = check(1.35, 0.01, 0.005, 1000 + seed);
    CaseResult unseen = steady;
    steady.cpu_wait_share = 0.6;
    judge_against(steady, b, shared_machine(), Fingerprint{});
    judge_against(unseen, b, shared_machine(), Fingerprint{});
    EXPECT_EQ(unseen.verdict, Verdict::regressed) << unseen.message;  // what the spread alone allowed
    const Judgement& j = relative(steady);
    EXPECT_EQ(steady.verdict, Verdict::pass) << steady.message;
    EXPECT_DOUBLE_EQ(j.threshold_pct, 60) << j.reason;
    EXPECT_EQ(j.threshold_source, "load");
    EXPECT_NE(j.reason.find("this check's threads waited for a core 60% of its time, which can stretch it by 150%"),
              std::string::npos)
        << j.reason;

    // Twice the work in that state: past the cap, too busy to judge.
    CaseResult busy_twice = check(2.0, 0.01, 0.005, 1100 + seed);
    busy_twice.cpu_wait_share = 0.6;
    judge_against(busy_twice, b, shared_machine(), Fingerprint{});
    EXPECT_EQ(busy_twice.verdict, Verdict::inconclusive) << busy_twice.message;
    EXPECT_TRUE(relative(busy_twice).too_busy);
    EXPECT_NE(relative(busy_twice).reason.find("too busy to judge: this check's waiting for cores calls for 150%"),
              std::string::npos)
        << relative(busy_twice).reason;

    // Waiting a fifth of the time allows 25%: twice the work is caught.
    CaseResult twice = check(2.0, 0.01, 0.005, 1200 + seed);
    twice.cpu_wait_share = 0.2;
    judge_against(twice, b, shared_machine(), Fingerprint{});
    EXPECT_DOUBLE_EQ(relative(twice).threshold_pct, 25) << relative(twice).reason;
    EXPECT_EQ(twice.verdict, Verdict::regressed) << twice.message;

    // A quiet machine's threads wait a percent or so: the floor stands.
    CaseResult quiet = check(1.0, 0.01, 0.005, 1300 + seed);
    quiet.cpu_wait_share = 0.01;
    judge_against(quiet, b, shared_machine(), Fingerprint{});
    EXPECT_DOUBLE_EQ(relative(quiet).threshold_pct, 5) << relative(quiet).reason;
    EXPECT_EQ(quiet.verdict, Verdict::pass) << quiet.message;
  }
  // A case that waits anyway (llvmpipe's threads wait 5-37% on a quiet 2-core machine) is allowed
  // only the waiting beyond what its baseline's runs had.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    BaselineCase b = baseline(seed);
    b.cpu_wait_share = 0.3;
    CaseResult usual = check(1.12, 0.01, 0.005, 1400 + seed);
    usual.cpu_wait_share = 0.35;  // (0.35 - 0.30) / 0.65: 7.7%
    judge_against(usual, b, shared_machine(), Fingerprint{});
    const Judgement& j = relative(usual);
    EXPECT_NEAR(j.threshold_pct, 100 * 0.05 / 0.65, 1e-9) << j.reason;
    EXPECT_NE(j.reason.find("waited for a core 35% of its time (its baseline's runs 30%), which can stretch it by 8%"),
              std::string::npos)
        << j.reason;
    EXPECT_EQ(usual.verdict, Verdict::regressed) << usual.message;
  }
  // Two threads waiting more than the whole time between them: no allowance covers it.
  CaseResult saturated = check(3.0, 0.01, 0.005, 1300);
  saturated.cpu_wait_share = 1.4;
  judge_against(saturated, baseline(13), shared_machine(), Fingerprint{});
  EXPECT_EQ(saturated.verdict, Verdict::inconclusive) << saturated.message;
  EXPECT_NE(relative(saturated).reason.find("calls for more than any allowance"), std::string::npos)
      << relative(saturated).reason;
}

// A raw-timed case (timed alone, no reference) as shipped on cpu-*: a fixed 150% that is also
// its load cap. Its own times' spread and its threads' waiting say when it was too busy to judge
// a change past that; a quiet check keeps catching what it caught, and a regression beyond 150%
// in a quiet check still stands.
Thresholds raw_timed_machine() { return following_load(metric::latency_ns, 150, true, 150); }

CaseResult timed_alone(double ratio, double sigma, std::uint64_t seed, int n = 60) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> jitter(0, sigma);
  CaseResult r;
  r.id = "cache_peak/cpu/n=1048576,iters=16";
  for (int i = 0; i < n; ++i) r.metrics[metric::latency_ns].samples.push_back(ratio * 5e5 * jitter(rng));
  return r;
}

const Judgement& latency(const CaseResult& r) { return judgement_of(r, metric::latency_ns); }

TEST(LoadAllowance, ARawTimedCaseIsTooBusyToJudgeWhenItsThreadsWaited) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    BaselineCase b;
    b.periods = 2;  // a merge of two proposals: its moves between periods measured
    b.id = "cache_peak/cpu/n=1048576,iters=16";
    b.cpu_wait_share = 0.006;
    for (int run = 0; run < 5; ++run)
      b.runs[metric::latency_ns].push_back(
          timed_alone(1.0, 0.02, seed * 10 + run).metrics[metric::latency_ns].samples);

    // Beside a parallel build: 15x slower, its threads waiting 93% of the time. Too busy.
    CaseResult build = timed_alone(15.0, 0.05, 2000 + seed);
    build.cpu_wait_share = 0.93;
    judge_against(build, b, raw_timed_machine(), Fingerprint{});
    EXPECT_EQ(build.verdict, Verdict::inconclusive) << build.message;
    EXPECT_TRUE(latency(build).too_busy);
    EXPECT_NE(latency(build).reason.find("too busy to judge: this check's waiting for cores calls for"),
              std::string::npos)
        << latency(build).reason;

    // Its own times scattering over 100% (no waiting counted): 1.5 x that is past the cap, so a
    // change past 150% is no evidence either way.
    CaseResult scattered = timed_alone(4.0, 2.0, 2100 + seed);
    judge_against(scattered, b, raw_timed_machine(), Fingerprint{});
    EXPECT_NE(scattered.verdict, Verdict::regressed) << scattered.message;
    EXPECT_TRUE(latency(scattered).change_pct <= 150 || latency(scattered).too_busy)
        << latency(scattered).reason;

    // Quiet: the same 4x is a regression, the fixed 150% unchanged.
    CaseResult quiet = timed_alone(4.0, 0.02, 2200 + seed);
    quiet.cpu_wait_share = 0.01;
    judge_against(quiet, b, raw_timed_machine(), Fingerprint{});
    EXPECT_EQ(quiet.verdict, Verdict::regressed) << quiet.message;
    EXPECT_DOUBLE_EQ(latency(quiet).threshold_pct, 150) << latency(quiet).reason;
    EXPECT_NE(latency(quiet).reason.find("its own times, timed alone"), std::string::npos)
        << latency(quiet).reason;
  }
}

TEST(LoadAllowance, AFixedAllowanceKeepsItsFigure) {
  // A case whose reference does not follow the machine keeps a fixed 60% however quiet the check.
  Thresholds t = shared_machine();
  t.metrics[metric::relative_latency].max_regression_pct = 60;
  CaseResult r = check(1.0, 0.01, 0.005, 800);
  judge_against(r, baseline(8), t, Fingerprint{});
  EXPECT_DOUBLE_EQ(relative(r).threshold_pct, 60);
  EXPECT_EQ(relative(r).threshold_source, "fixed");
}

TEST(LoadAllowance, FollowsOnlyWhereAFactorIsSet) {
  Allowance a{5, "floor", "floor min_allowed_pct"};
  CheckSpread busy;
  busy.rounds = 40;
  busy.case_pct = 30;
  MetricThreshold none;
  EXPECT_DOUBLE_EQ(follow_load(a, busy, none).pct, 5);
  MetricThreshold t;
  t.load_factor = 1.5;
  const Allowance widened = follow_load(a, busy, t);
  EXPECT_DOUBLE_EQ(widened.pct, 45);  // no cap given: 1.5 x 30
  EXPECT_EQ(widened.source, "load");
  EXPECT_DOUBLE_EQ(follow_load(a, CheckSpread{}, t).pct, 5) << "no rounds measured: nothing to follow";
}

TEST(LoadAllowance, ShippedThresholdsFollowTheLoadOnTheCpu) {
  const ThresholdSet set = ThresholdSet::load(std::filesystem::path(PERFGATE_SOURCE_DIR) / "thresholds");
  const MetricThreshold cpu =
      set.resolve("copy/cpu/n=1048576", "cpu-intel-xeon-2t").metrics.at(metric::relative_latency);
  EXPECT_FALSE(cpu.max_regression_pct.has_value());
  EXPECT_GT(cpu.load_factor.value_or(0), 0);
  EXPECT_EQ(cpu.load_max_pct, 60);
  // No floor and no fixed allowance by machine name: the runs, the load and the periods measured
  // on the machine decide (judge/judge_case.cpp).
  EXPECT_EQ(cpu.min_allowed_pct.value_or(0), 0);
  EXPECT_FALSE(cpu.compute_min_allowed_pct.has_value());
  for (const char* id : {"sampling/cpu/n=32000", "layernorm/cpu/rows=1024,cols=4096", "copy/cpu/n=33554432"})
    EXPECT_FALSE(set.resolve(id, "cpu-amd-epyc-2t").metrics.at(metric::relative_latency).max_regression_pct) << id;
  const MetricThreshold llvmpipe =
      set.resolve("triad/vulkan/n=1048576", "llvmpipe").metrics.at(metric::relative_latency);
  EXPECT_FALSE(llvmpipe.max_regression_pct.has_value());
  EXPECT_EQ(llvmpipe.min_allowed_pct.value_or(0), 0);
  EXPECT_GT(llvmpipe.load_factor.value_or(0), 0);
  EXPECT_EQ(llvmpipe.load_max_pct, 60);
  // A raw-timed case on the CPU (cache_peak, not calibrated) follows the load up to 150%.
  const MetricThreshold raw =
      set.resolve("cache_peak/cpu/n=1048576,iters=16", "cpu-amd-epyc-2t").metrics.at(metric::latency_ns);
  EXPECT_FALSE(raw.max_regression_pct.has_value());
  EXPECT_GT(raw.load_factor.value_or(0), 0);
  EXPECT_EQ(raw.load_max_pct, 150);
  // GPUs do not follow a load.
  EXPECT_FALSE(set.resolve("copy/vulkan/n=1048576", "nvidia-h100-80gb-hbm3")
                   .metrics.at(metric::relative_latency)
                   .load_factor);
  EXPECT_THROW(ThresholdSet::from_yaml_text(
                   "defaults:\n  metrics:\n    relative_latency: {load_factor: -1}\n", "t.yaml"),
               Error);
}

}  // namespace
}  // namespace perfgate
