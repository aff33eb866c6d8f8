#include "measure/gate.h"

#include "judge/verdict.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// Why a baseline may not be comparable, said once in the message rather than hidden.
std::string context_changes(const BaselineCase& baseline, const CaseResult& result,
                            const Fingerprint& current) {
  std::string note;
  if (!baseline.source_hash.empty() && baseline.source_hash != result.source_hash)
    note += "kernel source changed since the baseline; ";
  const Fingerprint& old = baseline.fingerprint;
  if (!old.driver_version.empty() && old.driver_version != current.driver_version)
    note += "driver " + old.driver_version + " -> " + current.driver_version + " since the baseline; ";
  if (!old.compiler.empty() && old.compiler != current.compiler)
    note += "compiler " + old.compiler + " -> " + current.compiler + " since the baseline; ";
  if (!note.empty()) note.resize(note.size() - 2);
  return note;
}

}  // namespace

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

void judge_against(CaseResult& result, const std::optional<BaselineCase>& baseline,
                   const Thresholds& thresholds, const Fingerprint& current) {
  result.judgements.clear();
  if (result.verdict == Verdict::error || result.verdict == Verdict::skipped) return;
  for (const auto& [metric, threshold] : thresholds.metrics) {
    if (!threshold.judged()) continue;
    auto measured = result.metrics.find(metric);
    if (measured == result.metrics.end()) continue;
    const std::vector<std::vector<double>>* runs = nullptr;
    if (baseline) {
      auto it = baseline->runs.find(metric);
      if (it != baseline->runs.end() && !it->second.empty()) runs = &it->second;
    }
    if (runs) {
      result.judgements.push_back(judge_metric(metric, measured->second.samples, *runs, threshold,
                                               thresholds.significance, thresholds.noise_factor));
    } else if (auto floor = judge_floor(metric, measured->second.samples, threshold)) {
      result.judgements.push_back(*floor);
    }
  }
  if (!baseline) {
    bool floor_failed = false;
    for (const auto& j : result.judgements) floor_failed |= j.verdict == Verdict::regressed;
    result.verdict = floor_failed ? Verdict::regressed : Verdict::no_baseline;
    result.message = floor_failed ? "below an absolute floor (no baseline yet)"
                                  : "no approved baseline for " + current.machine_id;
    return;
  }
  result.verdict = combine(result.judgements);
  std::string worst;
  for (const auto& j : result.judgements)
    if (j.verdict == result.verdict && worst.empty()) worst = j.metric + ": " + j.reason;
  result.message = worst;
  if (std::string note = context_changes(*baseline, result, current); !note.empty())
    result.message += (result.message.empty() ? "" : " (") + note + (result.message.empty() ? "" : ")");
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
  // Read before measuring: a baseline file that is refused stops the case at once.
  if (baselines_) baselines_->find(device_.fingerprint().machine_id, spec.kernel->name(), spec.id);
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
