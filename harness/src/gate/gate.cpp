#include "gate/gate.h"

#include "judge/judge_case.h"
#include "stats/summary.h"

namespace perfgate {

SamplingOptions Gate::sampling_options(const SamplingSettings& s) {
  SamplingOptions o;
  o.min_samples = s.min_samples;
  o.max_samples = s.max_samples;
  o.min_time_s = s.min_time_s;
  o.timeout_s = s.timeout_s;
  o.target_precision_pct = s.target_precision_pct;
  o.warmup_s = s.warmup_s;
  o.batch_min_time_ms = s.batch_min_time_ms;
  return o;
}

void Gate::judge(CaseResult& result, const Thresholds& thresholds) const {
  std::optional<BaselineCase> baseline;
  if (baselines_)
    baseline = baselines_->find(device_.fingerprint().machine_id, result.kernel, result.id);
  judge_against(result, baseline, thresholds, device_.fingerprint());
}

CaseResult Gate::run(const CaseSpec& spec) {
  const Thresholds thresholds = thresholds_.resolve(spec.id, device_.fingerprint().machine_id);
  const SamplingOptions options = sampling_options(thresholds.sampling);
  CaseResult result = measure_case(device_, spec, options, peaks_, seed_);
  judge(result, thresholds);
  // Past the threshold but not significant: more samples decide, a bounded number of times.
  for (int again = 0; again < thresholds.remeasure && result.verdict == Verdict::inconclusive; ++again) {
    CaseResult more = measure_case(device_, spec, options, peaks_, seed_ + again + 1);
    if (more.verdict == Verdict::error || more.verdict == Verdict::skipped) return more;
    for (const char* metric : {"latency_ns", "host_latency_ns", "cold_latency_ns"}) {
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
