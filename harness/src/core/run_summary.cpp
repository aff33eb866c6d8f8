#include "perfgate/run_summary.h"

#include <algorithm>
#include <map>

#include "perfgate/metric_names.h"

namespace perfgate {

const Metric* find_metric(const CaseResult& result, std::string_view name) {
  auto it = result.metrics.find(std::string(name));
  return it == result.metrics.end() ? nullptr : &it->second;
}

double median_of(const CaseResult& result, std::string_view name) {
  const Metric* m = find_metric(result, name);
  return m ? m->summary.median : 0;
}

const Judgement* main_judgement(const CaseResult& result) {
  for (const auto& j : result.judgements)
    if (j.metric == metric::latency_ns) return &j;
  return result.judgements.empty() ? nullptr : &result.judgements.front();
}

std::vector<const CaseResult*> worst_first(const RunResult& run) {
  std::vector<const CaseResult*> order;
  for (const auto& c : run.cases) order.push_back(&c);
  auto change = [](const CaseResult* c) {
    const Judgement* j = main_judgement(*c);
    return j ? j->change_pct : 0.0;
  };
  std::stable_sort(order.begin(), order.end(), [&](const CaseResult* a, const CaseResult* b) {
    if (severity(a->verdict) != severity(b->verdict)) return severity(a->verdict) < severity(b->verdict);
    return change(a) > change(b);
  });
  return order;
}

std::vector<std::pair<Verdict, int>> verdict_counts(const RunResult& run) {
  std::map<int, std::pair<Verdict, int>> by_severity;
  for (const auto& c : run.cases) {
    auto& entry = by_severity[severity(c.verdict)];
    entry.first = c.verdict;
    ++entry.second;
  }
  std::vector<std::pair<Verdict, int>> counts;
  for (const auto& [rank, entry] : by_severity) counts.push_back(entry);
  return counts;
}

}  // namespace perfgate
