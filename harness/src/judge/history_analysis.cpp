#include "judge/history_analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "core/content_digest.h"
#include "judge/device_spread.h"
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
                   {"moved", c.moved},
                   {"not_gated", c.not_gated},
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

// What measured a run: its GPU, and the host (llvmpipe's device is the same on every host).
std::string instrument(const HistoryPoint& p) { return p.host_id + "/" + p.device_uuid; }

// "device" where two runs were measured on different GPUs, "host" where on different hosts.
std::string moved_between(const HistoryPoint& a, const HistoryPoint& b) {
  if (!a.device_uuid.empty() && !b.device_uuid.empty() && a.device_uuid != b.device_uuid) return "device";
  if (!a.host_id.empty() && !b.host_id.empty() && a.host_id != b.host_id) return "host";
  return "";
}

// Runs either side of a step within which a move to another device makes it a step across
// devices: where a step is small against the noise its located run is uncertain by a run or two
// (on four H200 leases a +0.3% device step was placed one run before the move).
constexpr int kMoveNearRuns = 2;

// What moved within kMoveNearRuns of the step at `index` ("device", "host" or ""): a run on a
// device (or host) none of the runs before it measured on. One the history already knows is no
// move: a host of two GPUs alternating run by run keeps its steps judged as any are.
std::string moved_near(const std::vector<HistoryPoint>& points, int index) {
  const int last = std::min(index + kMoveNearRuns, static_cast<int>(points.size()) - 1);
  std::set<std::string> seen;
  for (int i = 0; i <= last; ++i) {
    if (i >= std::max(index - kMoveNearRuns, 1) && !seen.count(instrument(points[i])))
      if (std::string moved = moved_between(points[i - 1], points[i]); !moved.empty()) return moved;
    seen.insert(instrument(points[i]));
  }
  return "";
}

// Why a regression of `pct` to runs on another device (or host) from the runs before `index` is
// not gated, or "" where it is past what those runs have shown devices apart to be (noise_factor
// x the 90% bound of their spread, as a check on an unseen GPU is allowed). Only the runs before
// count: a device that arrives slower must not widen its own allowance.
std::string across_not_gated(const CaseHistory& h, int index, const std::string& moved, double pct,
                             double noise_factor) {
  std::map<std::string, std::vector<double>> before;  // instrument -> its runs' values
  bool gpus = false;
  for (int i = 0; i < index; ++i) {
    before[instrument(h.points[i])].push_back(h.values[i]);
    gpus = gpus || !h.points[i].device_uuid.empty();
  }
  const int instruments = static_cast<int>(before.size());
  const std::optional<DeviceSpread> between =
      spread_between(before, gpus ? "devices of the runs before it" : "hosts of the runs before it");
  if (!between)
    return fmt::format(
        "runs on another {0} after it, and the runs before it name {1} {0}{2}: a step between "
        "{0}s is weighed once they name {3}",
        moved, instruments, instruments == 1 ? "" : "s", kDeviceSpreadDevices);
  const double allowed = noise_factor * between->bound_pct;
  if (pct > allowed) return "";
  return fmt::format("runs on another {} after it, within {:.2g}% ({:g} x the 90% bound of {})", moved,
                     allowed, noise_factor, between->why);
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
    // Also at a new kernel source or driver: a step where both the code and the device changed
    // cannot be told the code's by the history, as a check on an unseen GPU cannot.
    c.moved = moved_near(h.points, step.index);
    // Where both sides name one commit (runs repeated on an unchanged tree), the runs tell two
    // steps of the case apart; a range of commits keeps the id it always had.
    c.id = c.commit_before == c.commit_after
               ? short_id("cp", {machine, case_id, h.metric, c.commit_before, c.run_before, c.run_after})
               : short_id("cp", {machine, case_id, h.metric, c.commit_before, c.commit_after});
    if (auto ack = acks.find(c.id); ack != acks.end()) c.acknowledged = ack->second;
    h.changes.push_back(std::move(c));
  }
  const double noise_factor = thresholds.resolve(case_id, machine).noise_factor;
  for (HistoryChange& c : h.changes)
    if (c.regression && !c.moved.empty())
      c.not_gated = across_not_gated(h, c.run_index, c.moved, c.step.magnitude_pct, noise_factor);
  h.baseline_median = baseline_median(baselines, machine, case_id, h.metric);
  // An acknowledged regression is an accepted cost: the best segment is sought after it.
  Segmentation since_accepted = h.segmentation;
  for (const HistoryChange& c : h.changes)
    if (c.regression && c.acknowledged)
      std::erase_if(since_accepted.segments, [&](const Segment& s) { return s.begin < c.run_index; });
  h.drift = find_drift(since_accepted, h.baseline_median, true, h.settings);
  h.drift.best_segment += static_cast<int>(h.segmentation.segments.size() - since_accepted.segments.size());
  // Drift to a newest segment with runs on devices the best segment has none on: weighed as a step
  // across devices.
  const auto& segments = h.segmentation.segments;
  if (h.drift.exceeded && h.drift.vs_reference_pct <= h.settings.drift_max_pct &&
      h.drift.best_segment + 1 < static_cast<int>(segments.size())) {
    const Segment& best = segments[h.drift.best_segment];
    const Segment& newest = segments.back();
    std::set<std::string> best_on;
    for (int i = best.begin; i < best.end; ++i) best_on.insert(instrument(h.points[i]));
    std::string moved;  // what the first newest run measured on nothing of the best segment differs by
    for (int i = newest.begin; i < newest.end && moved.empty(); ++i)
      if (!best_on.count(instrument(h.points[i]))) moved = moved_between(h.points[best.begin], h.points[i]);
    if (!moved.empty())
      h.drift_not_gated = across_not_gated(h, newest.begin, moved, h.drift.vs_best_pct, noise_factor);
  }
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
    if (c.regression && c.not_gated.empty() && !c.acknowledged) open.push_back(&c);
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
