#include "judge/history_analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "core/content_digest.h"
#include "perfgate/metric_names.h"
#include "stats/summary.h"

namespace perfgate {

nlohmann::json change_json(const HistoryChange& c) {
  nlohmann::json j{{"change_id", c.id},
                   {"run_index", c.run_index},
                   {"commit_before", c.commit_before},
                   {"commit_after", c.commit_after},
                   {"run_before", c.run_before},
                   {"run_after", c.run_after},
                   {"started_at", c.started_after},
                   {"median_before", c.step.median_before},
                   {"median_after", c.step.median_after},
                   {"change_pct", c.step.magnitude_pct},
                   {"interval_pct", {c.step.low_pct, c.step.high_pct}},
                   {"p_value", c.step.p_value},
                   {"regression", c.regression},
                   {"known_boundary", c.boundary},
                   {"acknowledged", c.acknowledged.has_value()}};
  if (c.acknowledged) j["acknowledged_by"] = c.acknowledged->by, j["ack_reason"] = c.acknowledged->reason;
  if (c.bisected) {
    nlohmann::json commits = nlohmann::json::array();
    for (const BisectedCommit& b : c.bisected->commits)
      commits.push_back({{"sha", b.sha},
                         {"subject", b.subject},
                         {"change_pct", b.change_pct},
                         {"interval_pct", {b.low_pct, b.high_pct}},
                         {"exact", b.exact}});
    j["bisected_to"] = commits;
  }
  return j;
}
namespace {

// "<prefix>-" + the first 12 hex digits of the SHA-256 of the parts: short enough to type.
std::string short_id(const std::string& prefix, const std::vector<std::string>& parts) {
  std::string joined;
  for (const auto& p : parts) joined += p + '\n';
  const std::string digest = sha256_digest(joined);  // "sha256:<hex>"
  return prefix + "-" + digest.substr(digest.find(':') + 1, 12);
}

// Where a run sits in the commit history: its commit, else its run id.
std::string where(const HistoryPoint& p) { return p.commit.empty() ? p.run_id : p.commit; }

std::string boundary_between(const HistoryPoint& a, const HistoryPoint& b) {
  const bool source = !a.source_hash.empty() && !b.source_hash.empty() && a.source_hash != b.source_hash;
  const bool driver = !a.driver.empty() && !b.driver.empty() && a.driver != b.driver;
  if (source && driver) return "kernel source and driver";
  if (source) return "kernel source";
  if (driver) return "driver";
  return "";
}

double baseline_median(const BaselineStore* baselines, const std::string& machine, const std::string& case_id,
                       const std::string& metric) {
  if (baselines == nullptr) return 0;
  const auto baseline = baselines->find(machine, case_id.substr(0, case_id.find('/')), case_id);
  if (!baseline) return 0;
  const auto runs = baseline->runs.find(metric);
  if (runs == baseline->runs.end()) return 0;
  std::vector<double> medians;
  for (const auto& run : runs->second)
    if (!run.empty()) medians.push_back(median(run));
  return medians.empty() ? 0 : median(medians);
}

CaseHistory analyse_case(const std::string& machine, const std::string& case_id,
                         std::vector<HistoryPoint> all, const ThresholdSet& thresholds,
                         const BaselineStore* baselines, const std::map<std::string, Acknowledgement>& acks) {
  CaseHistory h;
  h.machine_id = machine;
  h.case_id = case_id;
  // Calibrated cases are judged on relative_latency; the newest run says which the case is now.
  h.metric =
      all.back().medians.count(metric::relative_latency) ? metric::relative_latency : metric::latency_ns;
  for (HistoryPoint& p : all) {
    const auto value = p.medians.find(h.metric);
    if (value == p.medians.end() || !(value->second > 0)) continue;
    h.values.push_back(value->second);
    h.points.push_back(std::move(p));
  }
  // The smallest step and the drift allowed follow this series' own run-to-run noise.
  h.settings = settings_for_series(h.values, thresholds.resolve(case_id, machine).history);
  std::vector<int> boundaries;
  for (std::size_t i = 1; i < h.points.size(); ++i)
    if (!boundary_between(h.points[i - 1], h.points[i]).empty()) boundaries.push_back(static_cast<int>(i));
  h.segmentation = find_change_points(h.values, boundaries, h.settings);

  for (const ChangePoint& step : h.segmentation.changes) {
    const HistoryPoint& before = h.points[step.index - 1];
    const HistoryPoint& after = h.points[step.index];
    HistoryChange c;
    c.step = step;
    c.run_index = step.index;
    c.commit_before = where(before);
    c.commit_after = where(after);
    c.run_before = before.run_id;
    c.run_after = after.run_id;
    c.started_after = after.started_at;
    c.boundary = step.known_boundary ? boundary_between(before, after) : "";
    c.regression = step.magnitude_pct > 0;  // both judged series are times: larger is worse
    c.id = short_id("cp", {machine, case_id, h.metric, c.commit_before, c.commit_after});
    if (auto ack = acks.find(c.id); ack != acks.end()) c.acknowledged = ack->second;
    h.changes.push_back(std::move(c));
  }
  h.baseline_median = baseline_median(baselines, machine, case_id, h.metric);
  // An acknowledged regression is an accepted cost: the best segment is sought after it.
  Segmentation since_accepted = h.segmentation;
  for (const HistoryChange& c : h.changes)
    if (c.regression && c.acknowledged)
      std::erase_if(since_accepted.segments, [&](const Segment& s) { return s.begin < c.run_index; });
  h.drift = find_drift(since_accepted, h.baseline_median, true, h.settings);
  h.drift.best_segment += static_cast<int>(h.segmentation.segments.size() - since_accepted.segments.size());
  if (!h.segmentation.segments.empty()) {
    const HistoryPoint& start = h.points[h.segmentation.segments.back().begin];
    h.drift_id = short_id("drift", {machine, case_id, h.metric, where(start)});
    if (auto ack = acks.find(h.drift_id); ack != acks.end()) h.drift_acknowledged = ack->second;
  }
  return h;
}

}  // namespace

std::vector<const HistoryChange*> CaseHistory::open_regressions() const {
  std::vector<const HistoryChange*> open;
  for (const HistoryChange& c : changes)
    if (c.regression && !c.acknowledged) open.push_back(&c);
  return open;
}

std::vector<CaseHistory> analyse_history(const std::vector<HistoryPoint>& points,
                                         const ThresholdSet& thresholds, const BaselineStore* baselines,
                                         const std::map<std::string, Acknowledgement>& acknowledgements) {
  std::map<std::pair<std::string, std::string>, std::vector<HistoryPoint>> grouped;  // (case, machine)
  for (const HistoryPoint& p : points) grouped[{p.case_id, p.machine_id}].push_back(p);
  std::vector<CaseHistory> out;
  for (auto& [key, series] : grouped) {
    CaseHistory h =
        analyse_case(key.second, key.first, std::move(series), thresholds, baselines, acknowledgements);
    if (!h.points.empty()) out.push_back(std::move(h));
  }
  return out;
}

void attach_bisections(std::vector<CaseHistory>& histories, const std::map<std::string, Bisected>& bisected) {
  for (CaseHistory& h : histories)
    for (HistoryChange& c : h.changes)
      if (auto b = bisected.find(c.id); b != bisected.end()) c.bisected = b->second;
}

}  // namespace perfgate
