#pragma once
// The runner of every check: what `perfgate check` does for one CTest test, against a stored
// baseline or A/B. It measures a case (a CaseMeasurement from its source), measures more while
// the measurement's stopping rule asks for it (gate/stopping_rules.h), has the samples judged,
// and lets a regression stand only when fresh measurements regress too (judge/confirmation.h).
#include <cstdint>

#include "gate/case_measurement.h"
#include "measure/case_selection.h"
#include "perfgate/result.h"

namespace perfgate {

class Gate {
 public:
  Gate(MeasurementSource& source, std::uint64_t seed) : source_(source), seed_(seed) {}

  CaseResult run(const CaseSpec& spec);
  // One measurement to its stopping rule, its own verdict and never confirmed: for a caller that
  // judges several measurements together (`bisect --pairs`, judge/pair_spread.h). `seed` draws
  // its inputs (and an A/B pair's round order), so each measurement of a case is its own.
  CaseResult measure_once(const CaseSpec& spec, std::uint64_t seed);

 private:
  static CaseResult measure(CaseMeasurement& measurement);
  void confirm(const CaseMeasurement& first, CaseResult& result) const;

  MeasurementSource& source_;
  std::uint64_t seed_;
};

}  // namespace perfgate
