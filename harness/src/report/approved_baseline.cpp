#include "report/approved_baseline.h"

#include <cmath>

#include "perfgate/run_summary.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"

namespace perfgate {

RunResult approved_baseline_run(const RunResult& run, const BaselineStore& store) {
  RunResult approved;
  approved.fingerprint = run.fingerprint;
  for (const CaseResult& c : run.cases) {
    const Judgement* judged = main_judgement(c);
    if (c.ab || !judged || judged->baseline_median == 0) continue;
    const auto stored = store.find(run.fingerprint.machine_id, c.kernel, c.id);
    if (!stored) continue;
    const auto runs = stored->runs.find(judged->metric);
    if (runs == stored->runs.end()) continue;
    const std::vector<double> samples = pooled(runs->second);
    if (samples.empty()) continue;
    const double stored_median = median(samples);
    if (std::abs(stored_median - judged->baseline_median) > 1e-9 * std::abs(judged->baseline_median))
      continue;
    CaseResult one;
    one.id = c.id;
    one.kernel = c.kernel;
    one.backend = c.backend;
    for (const auto& [metric, metric_runs] : stored->runs) one.metrics[metric].samples = pooled(metric_runs);
    approved.cases.push_back(std::move(one));
  }
  return approved;
}

}  // namespace perfgate
