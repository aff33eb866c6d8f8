#include "gate/stored_measurement.h"

#include <chrono>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gate/stopping_rules.h"
#include "judge/judge_case.h"
#include "judge/verdict.h"
#include "perfgate/metric_names.h"
#include "stats/metric_samples.h"
#include "stats/sample_series.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// What every measurement of one case shares: read once.
struct StoredCase {
  Device& device;
  Peaks peaks;
  CaseSpec spec;
  Thresholds thresholds;
  std::optional<BaselineCase> baseline;
  StoredSource::FreshMeasure fresh_measure;
  std::optional<HistoryNoise> history;  // the case's spread in this machine's history, where known
  bool short_look = false;  // nothing to judge against: sampled briefly (SamplingSettings::short_look)
};

class StoredMeasurement : public CaseMeasurement {
 public:
  // `fresh`: a confirmation, measured once (in a fresh process where one is provided).
  StoredMeasurement(std::shared_ptr<const StoredCase> c, std::uint64_t seed, bool fresh)
      : case_(std::move(c)),
        seed_(seed),
        fresh_(fresh),
        criterion_(fresh ? 0 : case_->thresholds.remeasure) {}

  bool measure_more() override {
    CaseResult measured = take(measurements_);
    judged_ = false;
    if (measured.verdict == Verdict::error || measured.verdict == Verdict::skipped) {
      result_ = std::move(measured);
      failed_ = true;
      return false;
    }
    if (measurements_++ == 0) {
      result_ = std::move(measured);
      for (const char* metric : kPooled)
        if (auto it = result_.metrics.find(metric); it != result_.metrics.end())
          series_[metric].push_back(it->second.samples);
      return true;
    }
    for (const char* metric : kPooled) {
      auto from = measured.metrics.find(metric);
      if (from == measured.metrics.end()) continue;
      auto& series = series_[metric];
      series.push_back(std::move(from->second.samples));
      result_.metrics[metric] = make_metric(pool_by_position({series.begin(), series.end()}));
    }
    derive_metrics(result_, case_->peaks);
    result_.measurements += 1;
    return true;
  }

  bool finished() override {
    if (measurements_ == 0) return false;
    judge();
    return criterion_.is_finished(measurements_, result_.verdict,
                                  only_named(result_.judgements));
  }

  CaseResult conclude() override {
    if (!failed_ && measurements_ > 0) judge();
    return std::move(result_);
  }

  int confirmations() const override { return case_->thresholds.confirm; }

  std::unique_ptr<CaseMeasurement> fresh(std::uint64_t seed) const override {
    return std::make_unique<StoredMeasurement>(case_, seed, true);
  }

  std::string fresh_name() const override {
    return case_->fresh_measure ? "fresh process" : "fresh measurement";
  }

 private:
  // The series a re-measurement adds to (the clocks and stage times stay the first's).
  static constexpr const char* kPooled[] = {metric::latency_ns, metric::host_latency_ns,
                                            metric::cold_latency_ns, metric::reference_latency_ns,
                                            metric::relative_latency};

  // The n-th measurement of this case, not judged.
  CaseResult take(int n) const {
    const StoredCase& c = *case_;
    if (!fresh_) return measure_case(c.device, c.spec, c.thresholds.sampling, c.peaks, seed_ + n);
    // New buffers and a new warm-up: in a process of its own where the command line set that
    // up, else after a pause that lets clocks and caches settle.
    if (c.fresh_measure) return c.fresh_measure(c.spec, seed_, c.thresholds.sampling);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    return measure_case(c.device, c.spec, c.thresholds.sampling, c.peaks, seed_);
  }

  void judge() {
    if (judged_) return;
    judge_against(result_, case_->baseline, case_->thresholds, case_->device.fingerprint(),
                  case_->history ? &*case_->history : nullptr);
    if (case_->short_look && result_.verdict == Verdict::no_baseline)
      result_.message += " (a short look: " + std::to_string(case_->thresholds.sampling.min_samples) +
                         " samples, figures only)";
    judged_ = true;
  }

  std::shared_ptr<const StoredCase> case_;
  std::uint64_t seed_;
  bool fresh_;
  InconclusiveCriterion criterion_;
  CaseResult result_;
  int measurements_ = 0;
  bool judged_ = false;
  bool failed_ = false;
  std::map<std::string, std::vector<std::vector<double>>> series_;  // per pooled metric, per measurement
};

}  // namespace

std::unique_ptr<CaseMeasurement> StoredSource::open(const CaseSpec& spec, std::uint64_t seed) {
  const std::string& machine_id = device_.fingerprint().machine_id;
  auto c = std::make_shared<StoredCase>(
      StoredCase{device_, peaks_, spec, thresholds_.resolve(spec.id, machine_id),
                 baselines_ ? baselines_->find(machine_id, spec.kernel->name(), spec.id) : std::nullopt,
                 fresh_measure_});
  if (auto known = history_.find(spec.id); known != history_.end()) c->history = known->second;
  if (c->baseline) c->baseline = runs_of_device(*c->baseline, device_.fingerprint().device_uuid);
  // Timed as its baseline was: against the reference the baseline names, or alone where the
  // baseline was timed alone (it has no relative_latency; its raw times are what is judged).
  // A reference's batches between the case's would double the check's time for a metric nothing
  // judges, and move the case's raw time away from what its baseline saw back to back.
  if (c->baseline && c->thresholds.sampling.calibrate) {
    if (c->baseline->runs.count(metric::relative_latency))
      c->thresholds.sampling.calibration_reference = c->baseline->calibration_reference;
    else
      c->thresholds.sampling.calibrate = false;
  }
  if (for_verdicts_ && baselines_) {
    SamplingSettings& sampling = c->thresholds.sampling;
    if (c->baseline) {
      sampling.verdict_allowance_pct = least_allowance_pct(*c->baseline, c->thresholds);
      // The median the judged series is read against: relative_latency where the check is
      // calibrated as its baseline was, else the raw time (judge_against reads the same).
      sampling.verdict_baseline_relative = sampling.calibrate;
      const auto runs = c->baseline->runs.find(sampling.calibrate ? metric::relative_latency : metric::latency_ns);
      if (runs != c->baseline->runs.end()) {
        const std::vector<double> all = pooled(runs->second);
        if (!all.empty()) sampling.verdict_baseline_median = median(all);
      }
    } else {
      sampling = sampling.short_look();
      c->short_look = true;
    }
  }
  return std::make_unique<StoredMeasurement>(std::move(c), seed, false);
}

}  // namespace perfgate
