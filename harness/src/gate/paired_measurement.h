#pragma once
// A/B: a case measured in the base build and in this one at the same moment, and judged on their
// paired ratios (judge/paired_verdict.h) instead of a stored baseline. The two builds are stepped
// in short rounds, in a random order per round, so only one side runs at a time and whatever the
// machine does meanwhile falls on both alike; rounds go on until SettledCriterion says the
// judgement is settled. A regression is measured again by a fresh pair (`confirm` times) and
// stands only if every pair regresses: a pair can carry a bias of its own for its whole life (on
// llvmpipe one A/A pair in 40 measured 1.079 steadily), which more rounds of the same pair
// cannot remove.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/sampling_settings.h"
#include "gate/case_measurement.h"
#include "judge/thresholds.h"
#include "judge/paired_verdict.h"

namespace perfgate {

// The two builds of one A/B measurement, started and ready, each measuring the case on demand.
// cli/ab_check.h provides them as `perfgate serve` children.
class AbPair {
 public:
  enum class Side { base, head };
  virtual ~AbPair() = default;

  // What the side announced: its perfgate version, the case's source hash, its machine, binary.
  virtual const AbBuild& build(Side side) const = 0;
  // The head build's correctness check of the case.
  virtual const std::string& check() const = 0;
  // Warms the side up: the dispatches per batch it needs to last batch_min_time_ms.
  virtual int warm(Side side, const SamplingSettings& settings) = 0;
  // `batches` samples of `dispatches` each, in ns per dispatch.
  virtual std::vector<double> sample(Side side, int batches, int dispatches) = 0;
  // Ends both sides.
  virtual void finish() = 0;
};

// What starting or talking to a side throws when the case cannot be measured: its verdict
// (skipped: a base build without the case or without A/B support; error) and why.
struct PairFailure {
  Verdict verdict;
  std::string message;
};

class PairedSource : public MeasurementSource {
 public:
  // Starts a pair for a case, its inputs drawn from `seed`; throws PairFailure (or any error).
  using StartPair = std::function<std::unique_ptr<AbPair>(const CaseSpec& spec, std::uint64_t seed)>;

  // `allowance`: the change every case tolerates (bisect --allowed); none: each case's
  // thresholds' ab_max_regression_pct.
  PairedSource(const ThresholdSet& thresholds, StartPair start_pair, std::optional<AbAllowance> allowance = {})
      : thresholds_(thresholds), start_pair_(std::move(start_pair)), allowance_(std::move(allowance)) {}

  // Never throws for the case's own failures: they become its verdict.
  std::unique_ptr<CaseMeasurement> open(const CaseSpec& spec, std::uint64_t seed) override;

 private:
  const ThresholdSet& thresholds_;
  StartPair start_pair_;
  std::optional<AbAllowance> allowance_;
};

}  // namespace perfgate
