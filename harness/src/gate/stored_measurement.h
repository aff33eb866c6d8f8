#pragma once
// A case measured on this process's device and judged against its approved baseline under the
// thresholds: the samples of each measurement pooled with those before it (by relative
// position, stats/sample_series.h) while the judgement is inconclusive (InconclusiveCriterion);
// a regression confirmed by fresh measurements, each judged alone.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "gate/case_measurement.h"
#include "judge/history_noise.h"
#include "judge/thresholds.h"
#include "measure/device.h"
#include "measure/measure_case.h"
#include "store/baseline.h"

namespace perfgate {

class StoredSource : public MeasurementSource {
 public:
  // `baselines` null: nothing is judged against a baseline (floors only).
  StoredSource(Device& device, const ThresholdSet& thresholds, const BaselineStore* baselines, Peaks peaks)
      : device_(device), thresholds_(thresholds), baselines_(baselines), peaks_(peaks) {}

  // How a regression's confirmations are measured: by default in this process, after a pause;
  // the command line measures each in a process of its own (cli/fresh_measurement.h). Returns
  // the measured result, not judged.
  // A fresh measurement of `spec` timed as `sampling` says: calibrated or not, and against the
  // calibration reference its baseline names ("": chosen from the cost and the peaks).
  using FreshMeasure =
      std::function<CaseResult(const CaseSpec& spec, std::uint64_t seed, const SamplingSettings& sampling)>;
  void measure_fresh_with(FreshMeasure measure) { fresh_measure_ = std::move(measure); }

  // A check (what each perf test runs) needs verdicts, not figures: a case with a baseline is
  // sampled until its verdict is known (sampling.verdict_precision of the allowance it gets,
  // measure/precision_criterion.h), a case with none only for a short look
  // (SamplingSettings::short_look). Without this every case is sampled to target_precision_pct.
  void sample_for_verdicts() { for_verdicts_ = true; }

  // The spread each case has shown in this machine's history (judge/history_noise.h): a case
  // found here is judged with it in place of its floors.
  void judge_with_history(std::map<std::string, HistoryNoise> noise) { history_ = std::move(noise); }

  // Resolves the case's thresholds and reads its baseline, once for every measurement of the
  // case (a baseline file that is refused stops the case here, before anything is measured).
  std::unique_ptr<CaseMeasurement> open(const CaseSpec& spec, std::uint64_t seed) override;

 private:
  Device& device_;
  const ThresholdSet& thresholds_;
  const BaselineStore* baselines_;
  Peaks peaks_;
  FreshMeasure fresh_measure_;
  bool for_verdicts_ = false;
  std::map<std::string, HistoryNoise> history_;
};

}  // namespace perfgate
