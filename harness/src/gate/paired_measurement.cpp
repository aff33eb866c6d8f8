#include "gate/paired_measurement.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <utility>

#include "gate/stopping_rules.h"
#include "judge/paired_verdict.h"
#include "measure/measure_case.h"
#include "perfgate/metric_names.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

using Clock = std::chrono::steady_clock;
using Side = AbPair::Side;

class PairedMeasurement : public CaseMeasurement {
 public:
  PairedMeasurement(const ThresholdSet& thresholds, std::optional<AbAllowance> allowance,
                    PairedSource::StartPair start_pair, const CaseSpec& spec, std::uint64_t seed)
      : threshold_set_(thresholds),
        given_allowance_(std::move(allowance)),
        start_pair_(std::move(start_pair)),
        spec_(spec),
        seed_(seed),
        order_(seed) {
    name_result(result_, spec);
    result_.cost = spec.kernel->cost_of(spec.params);
  }

  bool measure_more() override {
    return guarded([&] {
      if (!pair_) start();
      take_round();
    });
  }

  bool finished() override {
    if (!pair_) return failed_;
    return criterion_->is_finished(rounds_, ratios_,
                                   std::chrono::duration<double>(Clock::now() - start_).count());
  }

  CaseResult conclude() override {
    if (failed_ || !pair_) return std::move(result_);
    guarded([&] {
      pair_->finish();
      AbComparison ab;
      ab.base = pair_->build(Side::base);
      ab.head = pair_->build(Side::head);
      ab.base.latency_ns = samples_[0].empty() ? 0 : median(samples_[0]);
      ab.head.latency_ns = samples_[1].empty() ? 0 : median(samples_[1]);
      ab.ratios = ratios_;
      result_.source_hash = ab.head.source_hash;
      result_.check = pair_->check();
      result_.metrics[metric::latency_ns] = make_metric(samples_[1]);
      derive_metrics(result_, Peaks{});
      result_.ab = std::move(ab);
      judge_ab(result_, *thresholds_, allowance_);
    });
    pair_.reset();
    return std::move(result_);
  }

  int confirmations() const override { return thresholds_ ? thresholds_->confirm : 0; }

  std::unique_ptr<CaseMeasurement> fresh(std::uint64_t seed) const override {
    return std::make_unique<PairedMeasurement>(threshold_set_, given_allowance_, start_pair_, spec_, seed);
  }

  std::string fresh_name() const override { return "fresh process pair"; }

 private:
  // Runs `step`; a failure becomes the case's verdict and ends the pair.
  template <typename Step>
  bool guarded(Step step) {
    try {
      step();
      return true;
    } catch (const PairFailure& f) {
      fail(f.verdict, f.message);
    } catch (const std::exception& e) {
      fail(Verdict::error, std::string("A/B check: ") + e.what());
    }
    return false;
  }

  void fail(Verdict verdict, std::string message) {
    result_.verdict = verdict;
    result_.message = std::move(message);
    failed_ = true;
    pair_.reset();
  }

  // Both sides started and warmed up, with the thresholds of the machine they run on.
  void start() {
    pair_ = start_pair_(spec_, seed_);
    thresholds_ = threshold_set_.resolve(spec_.id, pair_->build(Side::head).fingerprint.machine_id);
    allowance_ = given_allowance_.value_or(prior_ab_allowance(*thresholds_));
    criterion_.emplace(*thresholds_, allowance_.pct);
    // The same batch on both sides, long enough for the faster one.
    const int base = pair_->warm(Side::base, thresholds_->sampling);
    const int head = pair_->warm(Side::head, thresholds_->sampling);
    dispatches_ = std::max(base, head);
    start_ = Clock::now();
  }

  // One round: each side's batches in a random order, one ratio of their medians.
  void take_round() {
    Side sides[2] = {Side::base, Side::head};
    if (order_() & 1) std::swap(sides[0], sides[1]);
    double median_ns[2] = {0, 0};
    for (Side side : sides) {
      const int i = side == Side::head;
      const std::vector<double> ns = pair_->sample(side, thresholds_->ab_samples_per_round, dispatches_);
      samples_[i].insert(samples_[i].end(), ns.begin(), ns.end());
      median_ns[i] = median(ns);
    }
    if (median_ns[0] > 0) ratios_.push_back(median_ns[1] / median_ns[0]);
    ++rounds_;
  }

  const ThresholdSet& threshold_set_;
  std::optional<AbAllowance> given_allowance_;
  PairedSource::StartPair start_pair_;
  CaseSpec spec_;
  std::uint64_t seed_;
  std::mt19937_64 order_;
  std::unique_ptr<AbPair> pair_;
  std::optional<Thresholds> thresholds_;
  AbAllowance allowance_;
  std::optional<SettledCriterion> criterion_;
  int dispatches_ = 1;
  Clock::time_point start_;
  int rounds_ = 0;
  std::vector<double> ratios_;
  std::vector<double> samples_[2];  // every sample of base [0] and head [1]
  CaseResult result_;
  bool failed_ = false;
};

}  // namespace

std::unique_ptr<CaseMeasurement> PairedSource::open(const CaseSpec& spec, std::uint64_t seed) {
  return std::make_unique<PairedMeasurement>(thresholds_, allowance_, start_pair_, spec, seed);
}

}  // namespace perfgate
