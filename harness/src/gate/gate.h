#pragma once
// Measures a case and judges it against its approved baseline under the thresholds: the whole
// of what `perfgate check` does for one CTest test. An inconclusive judgement is measured again,
// a bounded number of times, with the samples pooled, before it stands; a regression must be
// confirmed by fresh measurements (`confirm`) before it stands.
#include <cstdint>
#include <filesystem>
#include <functional>

#include "judge/thresholds.h"
#include "measure/case_selection.h"
#include "measure/device.h"
#include "measure/measure_case.h"
#include "store/baseline.h"

namespace perfgate {

class Gate {
 public:
  Gate(Device& device, const ThresholdSet& thresholds, const BaselineStore* baselines, Peaks peaks,
       std::uint64_t seed)
      : device_(device), thresholds_(thresholds), baselines_(baselines), peaks_(peaks), seed_(seed) {}

  // How a regression's confirmations are measured: by default in this process, after a pause;
  // the command line measures each in a process of its own (cli/fresh_measurement.h).
  using FreshMeasure = std::function<CaseResult(const CaseSpec& spec, std::uint64_t seed)>;
  void measure_fresh_with(FreshMeasure measure) { fresh_measure_ = std::move(measure); }

  CaseResult run(const CaseSpec& spec);
  // Judges an already measured result (used by `compare` and after each measurement).
  void judge(CaseResult& result, const Thresholds& thresholds) const;

 private:
  void confirm(const CaseSpec& spec, const Thresholds& thresholds, CaseResult& result);

  Device& device_;
  const ThresholdSet& thresholds_;
  const BaselineStore* baselines_;
  Peaks peaks_;
  std::uint64_t seed_;
  FreshMeasure fresh_measure_;
};

}  // namespace perfgate
