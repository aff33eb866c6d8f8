#include "dashboard/attention.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace perfgate {
namespace {

using nlohmann::json;

// What an item's state is made of, worst first: one open entry makes the item open.
int state_rank(const std::string& state) { return state == "open" ? 0 : state == "not-gated" ? 1 : 2; }

std::string change_state(const HistoryChange& c) {
  if (c.acknowledged) return "acknowledged";
  if (!c.not_gated.empty()) return "not-gated";
  return "open";
}

json acknowledgement_json(const Acknowledgement& a) {
  return {{"by", a.by}, {"reason", a.reason}, {"at", a.at}};
}

json change_entry(const CaseHistory& h, const HistoryChange& c, const std::set<std::string>& alerted) {
  json e = change_json(c);
  e["case"] = h.case_id;
  e["machine"] = h.machine_id;
  e["metric"] = h.metric;
  e["state"] = change_state(c);
  e["alerted"] = alerted.count(c.id) > 0;
  e["recovered"] = recovered(h, c);
  e["device"] = point_device(h.points[c.run_index]);
  if (c.acknowledged) e["acknowledgement"] = acknowledgement_json(*c.acknowledged);
  return e;
}

json drift_entry(const CaseHistory& h, const std::set<std::string>& alerted) {
  const Segment& newest = h.segmentation.segments.back();
  const HistoryPoint& first = h.points[newest.begin];
  const HistoryPoint* before = newest.begin > 0 ? &h.points[newest.begin - 1] : nullptr;
  const double pct = std::max(h.drift.vs_best_pct, h.drift.vs_reference_pct);
  json e{{"change_id", h.drift_id},
         {"case", h.case_id},
         {"machine", h.machine_id},
         {"metric", h.metric},
         {"run_index", newest.begin},
         {"commit_before", before ? before->commit : ""},
         {"commit_after", first.commit},
         {"run_before", before ? before->run_id : ""},
         {"run_after", first.run_id},
         {"started_at", first.started_at},
         {"change_pct", pct},
         {"vs_best_pct", h.drift.vs_best_pct},
         {"vs_reference_pct", h.drift.vs_reference_pct},
         {"allowed_pct", h.settings.drift_max_pct},
         {"not_gated", h.drift_not_gated},
         {"state", h.drift_acknowledged         ? "acknowledged"
                   : !h.drift_not_gated.empty() ? "not-gated"
                                                : "open"},
         {"alerted", alerted.count(h.drift_id) > 0},
         {"recovered", false},
         {"device", point_device(first)}};
  if (h.drift_acknowledged) e["acknowledgement"] = acknowledgement_json(*h.drift_acknowledged);
  return e;
}

void add_unique(json& list, const json& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

}  // namespace

std::string point_device(const HistoryPoint& p) { return !p.device_uuid.empty() ? p.device_uuid : p.host_id; }

std::vector<std::string> series_devices(const CaseHistory& h) {
  std::vector<std::string> devices;
  for (const HistoryPoint& p : h.points) {
    const std::string d = point_device(p);
    if (!d.empty() && std::find(devices.begin(), devices.end(), d) == devices.end()) devices.push_back(d);
  }
  return devices;
}

bool recovered(const CaseHistory& h, const HistoryChange& c) {
  const auto& segments = h.segmentation.segments;
  if (segments.empty() || segments.back().begin <= c.run_index) return false;
  return segments.back().median <= c.step.median_before * (1 + h.settings.min_magnitude_pct / 100);
}

std::string series_state(const CaseHistory& h) {
  if (!h.open_regressions().empty() || h.drift_fails()) return "open";
  bool regression = false, improvement = false, not_gated = h.drift.exceeded && !h.drift_not_gated.empty();
  for (const HistoryChange& c : h.changes) {
    regression = regression || c.regression;
    improvement = improvement || !c.regression;
    not_gated = not_gated || (c.regression && !c.not_gated.empty() && !c.acknowledged);
  }
  if (not_gated) return "not-gated";
  if (regression || h.drift_acknowledged) return "acknowledged";
  return improvement ? "improved" : "unchanged";
}

json attention_items(const std::vector<CaseHistory>& histories, const std::set<std::string>& alerted) {
  // (commit before, commit after): commits name a range across machines; runs only where a
  // history has no commits. A step and the drift it made share their range: one item.
  std::map<std::pair<std::string, std::string>, std::vector<json>> groups;
  for (const CaseHistory& h : histories) {
    for (const HistoryChange& c : h.changes) {
      if (!c.regression) continue;
      json e = change_entry(h, c, alerted);
      e["kind"] = "step";
      groups[{c.commit_before.empty() ? c.run_before : c.commit_before,
              c.commit_after.empty() ? c.run_after : c.commit_after}]
          .push_back(std::move(e));
    }
    if (h.drift.exceeded && !h.segmentation.segments.empty()) {
      json e = drift_entry(h, alerted);
      e["kind"] = "drift";
      const std::string before = e["commit_before"], after = e["commit_after"];
      groups[{before.empty() ? std::string(e["run_before"]) : before,
              after.empty() ? std::string(e["run_after"]) : after}]
          .push_back(std::move(e));
    }
  }
  json items = json::array();
  for (auto& [key, entries] : groups) {
    std::sort(entries.begin(), entries.end(), [](const json& a, const json& b) {
      const int ra = state_rank(a["state"]), rb = state_rank(b["state"]);
      if (ra != rb) return ra < rb;
      if (a["kind"] != b["kind"]) return a["kind"] == "step";  // a step has its interval
      return double(a["change_pct"]) > double(b["change_pct"]);
    });
    json item{{"kinds", json::array()},    {"machines", json::array()},
              {"devices", json::array()},  {"acknowledged", json::array()},
              {"bisected", json::array()}, {"alerted", false},
              {"recovered", true},         {"worst", entries.front()},
              {"entries", entries}};
    for (const char* field : {"commit_before", "commit_after", "run_before", "run_after", "started_at"})
      item[field] = entries.front()[field];
    std::set<std::string> cases;
    std::string state = "acknowledged";
    for (const json& e : entries) {
      cases.insert(e["case"].get<std::string>());
      add_unique(item["kinds"], e["kind"]);
      add_unique(item["machines"], e["machine"]);
      if (!e["device"].get<std::string>().empty()) add_unique(item["devices"], e["device"]);
      if (state_rank(e["state"]) < state_rank(state)) state = e["state"];
      if (e.contains("acknowledgement"))
        add_unique(item["acknowledged"],
                   json{{"by", e["acknowledgement"]["by"]}, {"reason", e["acknowledgement"]["reason"]}});
      if (e.contains("bisected_to"))
        for (const json& b : e["bisected_to"]) add_unique(item["bisected"], b);
      item["alerted"] = item["alerted"].get<bool>() || e["alerted"].get<bool>();
      item["recovered"] = item["recovered"].get<bool>() && e["recovered"].get<bool>();
    }
    std::sort(item["machines"].begin(), item["machines"].end());
    std::sort(item["devices"].begin(), item["devices"].end());
    item["state"] = state;
    item["cases"] = cases.size();
    items.push_back(std::move(item));
  }
  std::stable_sort(items.begin(), items.end(), [](const json& a, const json& b) {
    const int ra = state_rank(a["state"]), rb = state_rank(b["state"]);
    if (ra != rb) return ra < rb;
    return std::fabs(double(a["worst"]["change_pct"])) > std::fabs(double(b["worst"]["change_pct"]));
  });
  return items;
}

}  // namespace perfgate
