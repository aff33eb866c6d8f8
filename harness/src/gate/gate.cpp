#include "gate/gate.h"

#include <chrono>
#include <thread>

#include "judge/confirmation.h"
#include "judge/judge_case.h"
#include "perfgate/metric_names.h"
#include "stats/summary.h"

namespace perfgate {

void Gate::judge(CaseResult& result, const Thresholds& thresholds) const {
  std::optional<BaselineCase> baseline;
  if (baselines_) baseline = baselines_->find(device_.fingerprint().machine_id, result.kernel, result.id);
  judge_against(result, baseline, thresholds, device_.fingerprint());
}

CaseResult Gate::run(const CaseSpec& spec) {
  const Thresholds thresholds = thresholds_.resolve(spec.id, device_.fingerprint().machine_id);
  const SamplingSettings& options = thresholds.sampling;
  // Read before measuring: a baseline file that is refused stops the case at once.
  if (baselines_) baselines_->find(device_.fingerprint().machine_id, spec.kernel->name(), spec.id);
  CaseResult result = measure_case(device_, spec, options, peaks_, seed_);
  judge(result, thresholds);
  // Past the threshold but not significant: more samples decide, a bounded number of times.
  for (int again = 0; again < thresholds.remeasure && result.verdict == Verdict::inconclusive; ++again) {
    CaseResult more = measure_case(device_, spec, options, peaks_, seed_ + again + 1);
    if (more.verdict == Verdict::error || more.verdict == Verdict::skipped) return more;
    for (const char* metric : {metric::latency_ns, metric::host_latency_ns, metric::cold_latency_ns,
                               metric::reference_latency_ns, metric::relative_latency}) {
      auto from = more.metrics.find(metric);
      if (from == more.metrics.end()) continue;
      auto& to = result.metrics[metric].samples;
      to.insert(to.end(), from->second.samples.begin(), from->second.samples.end());
      result.metrics[metric].summary = summarize(to);
    }
    derive_metrics(result, peaks_);
    result.measurements += 1;
    judge(result, thresholds);
  }
  confirm(spec, thresholds, result);
  if (result.throttled_samples > 0)
    result.message += (result.message.empty() ? "" : "; ") + std::to_string(result.throttled_samples) +
                      " samples dropped: taken while the GPU was throttled";
  return result;
}

// Fresh measurements (new buffers, a new warm-up; in a process of their own where the command
// line set that up, else after a pause that lets clocks and caches settle), each judged on its
// own, never pooled with the first; stops at the first that does not regress
// (judge/confirmation.h decides).
void Gate::confirm(const CaseSpec& spec, const Thresholds& thresholds, CaseResult& result) {
  if (thresholds.confirm == 0 || !needs_confirmation(result)) return;
  std::vector<CaseResult> fresh;
  for (int again = 0; again < thresholds.confirm; ++again) {
    const std::uint64_t seed = seed_ + 101 + again;
    if (fresh_measure_) {
      fresh.push_back(fresh_measure_(spec, seed));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      fresh.push_back(measure_case(device_, spec, thresholds.sampling, peaks_, seed));
    }
    if (fresh.back().verdict != Verdict::error && fresh.back().verdict != Verdict::skipped)
      judge(fresh.back(), thresholds);
    if (fresh.back().verdict != Verdict::regressed) break;
  }
  apply_confirmations(result, fresh, fresh_measure_ ? "fresh process" : "fresh measurement");
}

}  // namespace perfgate
