#pragma once
// What the gate drives: one measurement of one case, from its first samples to its judgement.
// Two kinds: against the stored baseline on this process's device (gate/stored_measurement.h),
// and A/B, base and head builds measured at the same moment (gate/paired_measurement.h). The
// gate (gate/gate.h) takes samples until the measurement's stopping rule is satisfied, has them
// judged, and confirms a regression with fresh measurements of the same kind.
#include <cstdint>
#include <memory>
#include <string>

#include "measure/case_selection.h"
#include "perfgate/result.h"

namespace perfgate {

class CaseMeasurement {
 public:
  virtual ~CaseMeasurement() = default;

  // Takes more samples (the first call: the first ones), pooled with those taken before. false:
  // the case cannot be measured (a skip or an error, in the result).
  virtual bool measure_more() = 0;
  // The stopping rule over what was taken (it may judge it to decide).
  virtual bool finished() = 0;
  // Ends the measurement: its result, judged unless it failed.
  virtual CaseResult conclude() = 0;

  // How many fresh measurements a regression must survive (the case's thresholds, `confirm`).
  virtual int confirmations() const = 0;
  // Another measurement of the same case, independent of this one (new buffers and warm-up; a
  // new process or pair of processes where there are any), judged under the same thresholds and
  // baseline, and what it is called in a verdict's message.
  virtual std::unique_ptr<CaseMeasurement> fresh(std::uint64_t seed) const = 0;
  virtual std::string fresh_name() const = 0;
};

// Opens a case's first measurement; `seed` draws its inputs.
class MeasurementSource {
 public:
  virtual ~MeasurementSource() = default;
  virtual std::unique_ptr<CaseMeasurement> open(const CaseSpec& spec, std::uint64_t seed) = 0;
};

}  // namespace perfgate
