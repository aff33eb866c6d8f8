#include "dashboard/site_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unordered_map>

#include "core/content_digest.h"
#include "dashboard/attention.h"
#include "dashboard/calibration_view.h"
#include "store/baseline.h"

namespace perfgate {
namespace {

using nlohmann::json;

// Six significant digits: the data files' size, and more than any median's precision.
double rounded(double value) {
  if (value == 0 || !std::isfinite(value)) return value;
  return std::stod(fmt::format("{:.6g}", value));
}

// Bucket medians of the values, at most `width` of them: the front page's small trend.
json trend(const std::vector<double>& values, std::size_t width) {
  json out = json::array();
  const std::size_t n = values.size();
  for (std::size_t b = 0; b < std::min(n, width); ++b) {
    const std::size_t begin = b * n / std::min(n, width), end = (b + 1) * n / std::min(n, width);
    std::vector<double> bucket(values.begin() + begin, values.begin() + end);
    std::nth_element(bucket.begin(), bucket.begin() + bucket.size() / 2, bucket.end());
    out.push_back(rounded(bucket[bucket.size() / 2]));
  }
  return out;
}

std::pair<std::string, std::string> kernel_and_backend(const std::string& case_id) {
  const auto first = case_id.find('/');
  if (first == std::string::npos) return {case_id, ""};
  const auto second = case_id.find('/', first + 1);
  return {case_id.substr(0, first),
          case_id.substr(first + 1, second == std::string::npos ? second : second - first - 1)};
}

struct RunRow {
  const CaseHistory* history;
  int index;
};

json approval_json(const ApprovalLogEntry& a) {
  return {{"by", a.by}, {"reason", a.reason}, {"time", a.time}, {"commit", a.commit}};
}

}  // namespace

std::string site_key(const std::string& id) {
  const std::string digest = sha256_digest(id);
  return digest.substr(digest.find(':') + 1, 16);
}

std::map<std::pair<std::string, std::string>, ApprovalLogEntry> read_approvals(
    const std::string& baselines_dir) {
  std::map<std::pair<std::string, std::string>, ApprovalLogEntry> out;
  if (baselines_dir.empty() || !std::filesystem::is_directory(baselines_dir)) return out;
  const BaselineStore store(baselines_dir);
  for (const std::string& machine : store.machines()) {
    if (!std::filesystem::exists(store.log_file(machine))) continue;
    for (ApprovalLogEntry& e : read_log(store.log_file(machine))) {
      if (e.action == "drop")
        out.erase({machine, e.case_id});
      else
        out[{machine, e.case_id}] = std::move(e);
    }
  }
  return out;
}

std::map<std::pair<std::string, std::string>, BaselineCase> read_baselines(const std::string& baselines_dir) {
  std::map<std::pair<std::string, std::string>, BaselineCase> out;
  if (baselines_dir.empty() || !std::filesystem::is_directory(baselines_dir)) return out;
  const BaselineStore store(baselines_dir);
  for (const std::string& machine : store.machines())
    for (BaselineCase& c : store.all(machine)) {
      std::string id = c.id;
      out.emplace(std::pair{machine, std::move(id)}, std::move(c));
    }
  return out;
}

json build_site_data(const SiteInputs& in, const SiteDocumentSink& sink) {
  const std::vector<CaseHistory>& histories = *in.histories;

  // Every run, oldest first, once however many machines and cases it holds.
  struct RunInfo {
    const HistoryPoint* first;
    std::set<std::string> machines, branches;
  };
  std::unordered_map<std::string, RunInfo> runs_by_id;
  for (const CaseHistory& h : histories)
    for (const HistoryPoint& p : h.points) {
      auto [it, fresh] = runs_by_id.try_emplace(p.run_id, RunInfo{&p, {}});
      it->second.machines.insert(p.machine_id);
      it->second.branches.insert(p.branch);
    }
  std::vector<const RunInfo*> runs;
  runs.reserve(runs_by_id.size());
  for (const auto& [id, info] : runs_by_id) runs.push_back(&info);
  std::sort(runs.begin(), runs.end(), [](const RunInfo* a, const RunInfo* b) {
    return std::tie(a->first->started_at, a->first->run_id) <
           std::tie(b->first->started_at, b->first->run_id);
  });
  std::unordered_map<std::string, int> run_index;
  json runs_json = json::array();
  for (const RunInfo* r : runs) {
    const HistoryPoint& p = *r->first;
    run_index[p.run_id] = static_cast<int>(runs_json.size());
    runs_json.push_back({{"id", p.run_id},
                         {"key", site_key(p.run_id)},
                         {"commit", p.commit},
                         {"started_at", p.started_at},
                         {"branches", r->branches},
                         {"machines", r->machines}});
  }

  // Cases in the order the judge gives them (case, then machine), each machine a series.
  json cases_json = json::array();
  std::map<std::string, int> case_index;
  std::unordered_map<std::string, std::vector<RunRow>> rows_by_run;
  MachineCalibrations calibrations;
  json case_doc;  // the case being built; histories come case by case
  std::string case_key;
  for (const CaseHistory& h : histories) {
    auto [ci, fresh] = case_index.try_emplace(h.case_id, static_cast<int>(cases_json.size()));
    if (fresh) {
      if (!case_key.empty()) sink("case", case_key, case_doc);
      case_key = site_key(h.case_id);
      const auto [kernel, backend] = kernel_and_backend(h.case_id);
      cases_json.push_back({{"id", h.case_id},
                            {"key", case_key},
                            {"kernel", kernel},
                            {"backend", backend},
                            {"series", json::array()}});
      case_doc = {{"case", h.case_id}, {"kernel", kernel}, {"backend", backend}, {"series", json::array()}};
    }
    const std::vector<std::string> devices = series_devices(h);
    const std::string state = series_state(h);
    json points = json::array();
    for (std::size_t i = 0; i < h.points.size(); ++i) {
      const HistoryPoint& p = h.points[i];
      const auto spread = p.spreads.find(h.metric);
      const std::string device = point_device(p);
      const auto d = std::find(devices.begin(), devices.end(), device);
      points.push_back({run_index.at(p.run_id), rounded(h.values[i]),
                        spread == p.spreads.end() ? 0.0 : rounded(spread->second),
                        d == devices.end() ? 0 : static_cast<int>(d - devices.begin())});
      rows_by_run[p.run_id].push_back({&h, static_cast<int>(i)});
    }
    json segments = json::array();
    for (const Segment& s : h.segmentation.segments) segments.push_back({s.begin, s.end, rounded(s.median)});
    json changes = json::array();
    for (const HistoryChange& c : h.changes) {
      json e = change_json(c);
      e["state"] = c.regression ? (c.acknowledged         ? "acknowledged"
                                   : !c.not_gated.empty() ? "not-gated"
                                                          : "open")
                                : "improvement";
      e["alerted"] = in.alerted.count(c.id) > 0;
      if (c.acknowledged) e["acknowledged_at"] = c.acknowledged->at;
      changes.push_back(std::move(e));
    }
    json baseline = nullptr;
    if (h.baseline_median > 0) {
      baseline = {{"median", rounded(h.baseline_median)}, {"allowed_pct", rounded(h.settings.drift_max_pct)}};
      if (auto a = in.approvals.find({h.machine_id, h.case_id}); a != in.approvals.end())
        baseline["approved"] = approval_json(a->second);
    }
    json calibration = nullptr;
    if (auto b = in.baselines.find({h.machine_id, h.case_id}); b != in.baselines.end()) {
      const CaseCalibration c = case_calibration(h.points, b->second, h.metric);
      calibrations.add(h.machine_id, h.case_id, c);
      calibration = case_calibration_json(c);
    }
    json drift{{"id", h.drift_id},
               {"vs_best_pct", rounded(h.drift.vs_best_pct)},
               {"vs_reference_pct", rounded(h.drift.vs_reference_pct)},
               {"best_segment", h.drift.best_segment},
               {"allowed_pct", rounded(h.settings.drift_max_pct)},
               {"noise_pct", rounded(h.settings.noise_pct)},
               {"exceeded", h.drift.exceeded},
               {"not_gated", h.drift_not_gated},
               {"fails", h.drift_fails()}};
    if (h.drift_acknowledged)
      drift["acknowledged"] = {{"by", h.drift_acknowledged->by}, {"reason", h.drift_acknowledged->reason}};
    case_doc["series"].push_back({{"machine", h.machine_id},
                                  {"metric", h.metric},
                                  {"devices", devices},
                                  {"state", state},
                                  {"points", std::move(points)},
                                  {"segments", std::move(segments)},
                                  {"changes", std::move(changes)},
                                  {"drift", std::move(drift)},
                                  {"baseline", std::move(baseline)},
                                  {"calibration", std::move(calibration)}});
    cases_json[ci->second]["series"].push_back(
        {{"machine", h.machine_id},
         {"metric", h.metric},
         {"devices", devices},
         {"state", state},
         {"runs", h.points.size()},
         {"changes", h.changes.size()},
         {"newest", h.segmentation.segments.empty() ? 0.0 : rounded(h.segmentation.segments.back().median)},
         {"vs_best_pct", rounded(h.drift.vs_best_pct)},
         {"trend", trend(h.values, 48)}});
  }

  if (!case_key.empty()) sink("case", case_key, case_doc);

  // A run's rows: [case index, machine, verdict, severity, metric, median, spread, % vs the
  // baseline (null without one), the drift allowed, % vs the segment before, change id or ""].
  for (const RunInfo* r : runs) {
    const std::string& id = r->first->run_id;
    json rows = json::array();
    for (const RunRow& row : rows_by_run[id]) {
      const CaseHistory& h = *row.history;
      const HistoryPoint& p = h.points[row.index];
      const double value = h.values[row.index];
      const auto spread = p.spreads.find(h.metric);
      json vs_baseline = nullptr;
      if (h.baseline_median > 0) vs_baseline = rounded((value / h.baseline_median - 1) * 100);
      std::string starts;
      for (const HistoryChange& c : h.changes)
        if (c.run_index == row.index) starts = c.id;
      rows.push_back({case_index.at(h.case_id), h.machine_id, to_string(p.verdict), severity(p.verdict),
                      h.metric, rounded(value), spread == p.spreads.end() ? 0.0 : rounded(spread->second),
                      vs_baseline, rounded(h.settings.drift_max_pct), point_device(p), starts});
    }
    sink("run", site_key(id), {{"run", id}, {"rows", std::move(rows)}});
    rows_by_run.erase(id);
  }

  return {{"runs", std::move(runs_json)},
          {"cases", std::move(cases_json)},
          {"items", attention_items(histories, in.alerted)},
          {"calibration", calibrations.summary()}};
}

}  // namespace perfgate
