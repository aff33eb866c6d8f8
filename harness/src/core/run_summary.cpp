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
  for (const char* main : {metric::relative_latency, metric::latency_ns})  // calibrated first
    for (const auto& j : result.judgements)
      if (j.metric == main) return &j;
  return result.judgements.empty() ? nullptr : &result.judgements.front();
}

const Judgement* deciding_judgement(const CaseResult& result) {
  const Judgement* main = main_judgement(result);
  if (!main || main->verdict == result.verdict) return main;
  const Judgement* deciding = nullptr;
  for (const auto& j : result.judgements)
    if (j.verdict == result.verdict && (!deciding || j.change_pct > deciding->change_pct)) deciding = &j;
  return deciding ? deciding : main;
}

const Judgement* judgement_of(const CaseResult& result, std::string_view metric) {
  for (const auto& j : result.judgements)
    if (j.metric == metric) return &j;
  return nullptr;
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

RunSummary summarize_run(const RunResult& run) {
  RunSummary summary;
  summary.cases = static_cast<int>(run.cases.size());
  for (Verdict v : {Verdict::pass, Verdict::improved, Verdict::regressed, Verdict::inconclusive,
                    Verdict::no_baseline, Verdict::skipped, Verdict::error})
    summary.counts[v] = 0;
  for (const auto& c : run.cases) {
    ++summary.counts[c.verdict];
    if (severity(c.verdict) < severity(summary.worst)) summary.worst = c.verdict;
  }
  return summary;
}

std::vector<std::pair<Verdict, int>> RunSummary::present_worst_first() const {
  std::vector<std::pair<Verdict, int>> present;
  for (const auto& [verdict, n] : counts)
    if (n > 0) present.emplace_back(verdict, n);
  std::sort(present.begin(), present.end(),
            [](const auto& a, const auto& b) { return severity(a.first) < severity(b.first); });
  return present;
}

int RunSummary::exit_code(bool require_baseline) const {
  return cases == 0 ? 0 : perfgate::exit_code(worst, require_baseline);
}

int RunSummary::run_exit_code(bool require_baseline) const {
  const int code = exit_code(require_baseline);
  return code == 77 ? 0 : code;
}

}  // namespace perfgate
