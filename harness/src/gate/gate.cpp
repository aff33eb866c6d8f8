#include "gate/gate.h"

#include "judge/judge_case.h"
#include "perfgate/metric_names.h"
#include "stats/summary.h"

namespace perfgate {

void Gate::judge(CaseResult& result, const Thresholds& thresholds) const {
  std::optional<BaselineCase> baseline;
  if (baselines_)
    baseline = baselines_->find(device_.fingerprint().machine_id, result.kernel, result.id);
  judge_against(result, baseline, thresholds, device_.fingerprint());
}

CaseResult Gate::run(const CaseSpec& spec) {
  const Thresholds thresholds = thresholds_.resolve(spec.id, device_.fingerprint().machine_id);
  const SamplingSettings& options = thresholds.sampling;
  CaseResult result = measure_case(device_, spec, options, peaks_, seed_);
  judge(result, thresholds);
  // Past the threshold but not significant: more samples decide, a bounded number of times.
  for (int again = 0; again < thresholds.remeasure && result.verdict == Verdict::inconclusive; ++again) {
    CaseResult more = measure_case(device_, spec, options, peaks_, seed_ + again + 1);
    if (more.verdict == Verdict::error || more.verdict == Verdict::skipped) return more;
    for (const char* metric : {metric::latency_ns, metric::host_latency_ns, metric::cold_latency_ns}) {
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
  return result;
}

}  // namespace perfgate
