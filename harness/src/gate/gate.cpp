#include "gate/gate.h"

#include <string>
#include <vector>

#include "judge/confirmation.h"

namespace perfgate {

CaseResult Gate::measure(CaseMeasurement& measurement) {
  while (!measurement.finished())
    if (!measurement.measure_more()) break;
  return measurement.conclude();
}

CaseResult Gate::run(const CaseSpec& spec) {
  const auto first = source_.open(spec, seed_);
  CaseResult result = measure(*first);
  confirm(*first, result);
  if (result.throttled_samples > 0)
    result.message += (result.message.empty() ? "" : "; ") + std::to_string(result.throttled_samples) +
                      " samples dropped: taken while the GPU was throttled";
  return result;
}

CaseResult Gate::measure_once(const CaseSpec& spec, std::uint64_t seed) {
  const auto measurement = source_.open(spec, seed);
  return measure(*measurement);
}

// Fresh measurements, each judged on its own, never pooled with the first; stops at the first
// that does not bear the regression out (judge/confirmation.h decides).
void Gate::confirm(const CaseMeasurement& first, CaseResult& result) const {
  if (first.confirmations() == 0 || !needs_confirmation(result)) return;
  std::vector<CaseResult> fresh;
  for (int again = 0; again < first.confirmations(); ++again) {
    fresh.push_back(measure(*first.fresh(seed_ + 101 + static_cast<std::uint64_t>(again))));
    if (!bears_out(result, fresh.back())) break;
  }
  apply_confirmations(result, fresh, first.fresh_name());
}

}  // namespace perfgate
