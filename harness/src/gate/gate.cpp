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
// that does not bear the regression out (judge/confirmation.h decides). One too busy to judge is
// measured again, up to kBusyRemeasures times, and only the last of them is kept.
void Gate::confirm(const CaseMeasurement& first, CaseResult& result) const {
  if (first.confirmations() == 0 || !needs_confirmation(result)) return;
  std::vector<CaseResult> fresh;
  std::uint64_t seed = seed_ + 101;
  int remeasured = 0;
  for (int again = 0; again < first.confirmations(); ++again) {
    fresh.push_back(measure(*first.fresh(seed++)));
    while (too_busy_to_judge(fresh.back()) && remeasured < kBusyRemeasures) {
      ++remeasured;
      fresh.back() = measure(*first.fresh(seed++));
    }
    if (!bears_out(result, fresh.back())) break;
  }
  apply_confirmations(result, fresh, first.fresh_name());
  if (remeasured > 0)
    result.message += "; measured again after " + counted(std::size_t(remeasured), first.fresh_name()) +
                      " too busy to judge";
}

}  // namespace perfgate
