// The runner's own sequence, over scripted measurements (each a list of verdicts its samples
// are judged to): measure until the measurement's stopping rule is met, conclude, and confirm a
// regression with fresh measurements, stopping at the first that does not regress.
#include "gate/gate.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "measure/case_selection.h"

namespace perfgate {
namespace {

// What one measurement concludes: a verdict, and for an inconclusive one whether its rounds
// spread past the load cap (too busy to judge).
struct Step {
  Step(Verdict v, bool busy = false) : verdict(v), too_busy(busy) {}  // NOLINT: a Verdict is a step
  Verdict verdict;
  bool too_busy;
};
const Step kTooBusy{Verdict::inconclusive, true};

// The steps each measurement (the first, then each fresh one) concludes with, and a log of
// what the gate asked for.
struct Script {
  std::deque<Step> verdicts;
  std::vector<std::string> log;
};

class ScriptedMeasurement : public CaseMeasurement {
 public:
  ScriptedMeasurement(Script& script, std::uint64_t seed, int portions)
      : script_(script), seed_(seed), portions_(portions) {}
  bool measure_more() override {
    script_.log.push_back("more " + std::to_string(seed_));
    return ++taken_ > 0;
  }
  bool finished() override { return taken_ >= portions_; }
  CaseResult conclude() override {
    CaseResult r;
    r.verdict = script_.verdicts.front().verdict;
    Judgement j;
    j.too_busy = script_.verdicts.front().too_busy;
    script_.verdicts.pop_front();
    j.metric = "latency_ns";
    j.verdict = r.verdict;
    j.baseline_median = 1;
    j.change_pct = r.verdict == Verdict::regressed ? 50 : 0;
    r.judgements = {j};
    r.message = "scripted";
    return r;
  }
  int confirmations() const override { return 2; }
  std::unique_ptr<CaseMeasurement> fresh(std::uint64_t seed) const override {
    return std::make_unique<ScriptedMeasurement>(script_, seed, 1);
  }
  std::string fresh_name() const override { return "fresh run"; }

 private:
  Script& script_;
  std::uint64_t seed_;
  int portions_;
  int taken_ = 0;
};

class ScriptedSource : public MeasurementSource {
 public:
  explicit ScriptedSource(Script& script) : script_(script) {}
  std::unique_ptr<CaseMeasurement> open(const CaseSpec&, std::uint64_t seed) override {
    return std::make_unique<ScriptedMeasurement>(script_, seed, 3);
  }

 private:
  Script& script_;
};

CaseSpec any_case() { return parse_case_id("copy/cpu/n=4096"); }

TEST(Gate, MeasuresUntilTheStoppingRuleThenConfirmsARegression) {
  Script script{{Verdict::regressed, Verdict::regressed, Verdict::regressed}, {}};
  ScriptedSource source(script);
  const CaseResult r = Gate(source, 10).run(any_case());
  EXPECT_EQ(r.verdict, Verdict::regressed);
  EXPECT_EQ(r.first_verdict, Verdict::regressed);
  EXPECT_EQ(r.confirmations.size(), 2u);
  EXPECT_EQ(r.message.rfind("confirmed by 2 fresh runs", 0), 0u) << r.message;
  // Three portions of the first measurement, then one per fresh measurement, seeded apart.
  EXPECT_EQ(script.log, (std::vector<std::string>{"more 10", "more 10", "more 10", "more 111", "more 112"}));
}

TEST(Gate, AFreshMeasurementThatPassesEndsTheConfirmation) {
  Script script{{Verdict::regressed, Verdict::pass, Verdict::regressed}, {}};
  ScriptedSource source(script);
  const CaseResult r = Gate(source, 10).run(any_case());
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_EQ(r.confirmations.size(), 1u);
  EXPECT_EQ(script.verdicts.size(), 1u);  // the second fresh measurement was never taken
}

// The load of a machine beside a parallel build comes and goes: a fresh measurement too busy
// to judge is measured again, and the one that can judge decides.
TEST(Gate, AFreshMeasurementTooBusyToJudgeIsMeasuredAgain) {
  Script script{{Verdict::regressed, kTooBusy, Verdict::pass}, {}};
  ScriptedSource source(script);
  const CaseResult r = Gate(source, 10).run(any_case());
  EXPECT_EQ(r.verdict, Verdict::pass);
  ASSERT_EQ(r.confirmations.size(), 1u);
  EXPECT_EQ(r.confirmations[0].verdict, Verdict::pass);
  EXPECT_NE(r.message.find("measured again after 1 fresh run too busy to judge"), std::string::npos)
      << r.message;
  EXPECT_EQ(script.log, (std::vector<std::string>{"more 10", "more 10", "more 10", "more 111", "more 112"}));
}

// At most kBusyRemeasures times: then the regression stands, unconfirmed, as before.
TEST(Gate, AMachineTooBusyEveryTimeLeavesTheRegressionStanding) {
  Script script{{Verdict::regressed, kTooBusy, kTooBusy, kTooBusy, Verdict::pass}, {}};
  ScriptedSource source(script);
  const CaseResult r = Gate(source, 10).run(any_case());
  EXPECT_EQ(r.verdict, Verdict::regressed);
  EXPECT_EQ(r.message.rfind("unconfirmed (a fresh run was too busy to judge", 0), 0u) << r.message;
  EXPECT_NE(r.message.find("measured again after 2 fresh runs too busy to judge"), std::string::npos)
      << r.message;
  EXPECT_EQ(script.verdicts.size(), 1u);  // 1 + kBusyRemeasures fresh measurements, no more
}

TEST(Gate, NothingToConfirmWithoutARegression) {
  Script script{{Verdict::inconclusive}, {}};
  ScriptedSource source(script);
  const CaseResult r = Gate(source, 10).run(any_case());
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_TRUE(r.confirmations.empty());
  EXPECT_EQ(script.log.size(), 3u);
}

}  // namespace
}  // namespace perfgate
