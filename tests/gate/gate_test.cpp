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

// The verdicts each measurement (the first, then each fresh one) concludes with, and a log of
// what the gate asked for.
struct Script {
  std::deque<Verdict> verdicts;
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
    r.verdict = script_.verdicts.front();
    script_.verdicts.pop_front();
    Judgement j;
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
