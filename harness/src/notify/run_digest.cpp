#include "notify/run_digest.h"

#include <algorithm>
#include <cmath>

namespace perfgate {

RunContext run_context(const RunResult& run, const CiContext& ci) {
  return {run.commit.empty() ? ci.commit : run.commit, run.branch.empty() ? ci.branch : run.branch, ci.url};
}

std::vector<Delta> ordered_deltas(const RunResult& run) {
  std::vector<Delta> deltas;
  for (const auto& c : run.cases)
    for (const auto& j : c.judgements)
      deltas.push_back({c.id, j.metric, j.baseline_median, j.current_median, j.change_pct, j.threshold_pct,
                        j.threshold_source, j.floor, j.verdict, j.reason});
  std::stable_sort(deltas.begin(), deltas.end(), [](const Delta& a, const Delta& b) {
    if (severity(a.verdict) != severity(b.verdict)) return severity(a.verdict) < severity(b.verdict);
    return std::fabs(a.change_pct) > std::fabs(b.change_pct);
  });
  return deltas;
}

std::vector<const CaseResult*> failed_cases(const RunResult& run) {
  std::vector<const CaseResult*> failed;
  for (const auto& c : run.cases)
    if (c.verdict == Verdict::error) failed.push_back(&c);
  return failed;
}

}  // namespace perfgate
