#include "report/fleet_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"

namespace perfgate {

const CaseResult* FleetView::cell(std::size_t machine, const std::string& case_id) const {
  for (const CaseResult& c : machines.at(machine).cases)
    if (c.id == case_id) return &c;
  return nullptr;
}

FleetView make_fleet_view(std::vector<DeviceRun> devices) {
  FleetView view;
  for (DeviceRun& device : devices) {
    view.labels.push_back(device.label);
    view.machines.push_back(std::move(device.run));
  }
  std::map<std::string, int> worst;  // case id -> lowest severity on any machine
  for (const RunResult& run : view.machines)
    for (const CaseResult& c : run.cases) {
      auto [it, added] = worst.try_emplace(c.id, severity(c.verdict));
      if (!added) it->second = std::min(it->second, severity(c.verdict));
    }
  for (const auto& [id, rank] : worst) view.case_ids.push_back(id);
  std::stable_sort(view.case_ids.begin(), view.case_ids.end(),
                   [&](const std::string& a, const std::string& b) { return worst.at(a) < worst.at(b); });
  return view;
}

std::vector<std::pair<Verdict, int>> fleet_counts(const FleetView& view) {
  std::map<int, std::pair<Verdict, int>> by_severity;
  for (const RunResult& run : view.machines)
    for (const auto& [verdict, n] : summarize_run(run).present_worst_first()) {
      auto& entry = by_severity.try_emplace(severity(verdict), verdict, 0).first->second;
      entry.second += n;
    }
  std::vector<std::pair<Verdict, int>> counts;
  for (const auto& [rank, entry] : by_severity) counts.push_back(entry);
  return counts;
}

std::string cell_text(const CaseResult* result) {
  if (!result) return "";
  std::string text(to_string(result->verdict));
  if (const Judgement* j = main_judgement(*result)) {
    text += fmt::format(" {:+.1f}%", j->change_pct);
    // A time change goes unnamed, raw or calibrated (relative to the reference at the same moment).
    if (j->metric != metric::latency_ns && j->metric != metric::relative_latency) text += " (" + j->metric + ")";
  }
  return text;
}

}  // namespace perfgate
