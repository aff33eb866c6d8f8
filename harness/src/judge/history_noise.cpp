#include "judge/history_noise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <span>

#include "judge/history_analysis.h"
#include "stats/change_points.h"
#include "stats/chi_squared.h"
#include "stats/run_noise.h"

namespace perfgate {

double history_allowed_pct(const HistoryNoise& noise, double noise_factor, std::string* why) {
  const double from_sigma = noise_factor * noise.bound_pct, from_modes = kModesMargin * noise.apart_pct;
  if (why != nullptr)
    *why =
        from_modes > from_sigma
            ? fmt::format("{:g} x {}: two of its newest runs lie {:.2g}% from their median (a second mode)",
                          kModesMargin, noise.why, noise.apart_pct)
            : fmt::format("{:g} x {}", noise_factor, noise.why);
  return std::max(from_sigma, from_modes);
}

namespace {

// Of a machine's runs, per case those at the kernel source of its newest run (runs that name no
// source, older lines, count as any): the noise is identical code's. A run of other code in the
// series is a change, not noise: on the 2-vCPU VM one 2x-work copy run among a host's seven widened
// copy's history allowance to 259%, and a later 2x slowdown would have passed.
std::vector<HistoryPoint> same_code(const std::vector<HistoryPoint>& runs) {
  std::map<std::string, const HistoryPoint*> newest;
  for (const HistoryPoint& p : runs)
    if (!p.source_hash.empty())
      if (const HistoryPoint*& n = newest[p.case_id]; !n || n->started_at <= p.started_at) n = &p;
  std::vector<HistoryPoint> out;
  for (const HistoryPoint& p : runs)
    if (const auto n = newest.find(p.case_id);
        p.source_hash.empty() || n == newest.end() || n->second->source_hash == p.source_hash)
      out.push_back(p);
  return out;
}

}  // namespace

std::map<std::string, HistoryNoise> history_noise(const std::vector<HistoryPoint>& points,
                                                  const ThresholdSet& thresholds, const std::string& device_uuid,
                                                  const std::string& host_id) {
  std::vector<HistoryPoint> own;
  for (const HistoryPoint& p : points) {
    const bool mine = !device_uuid.empty() ? p.device_uuid.empty() || p.device_uuid == device_uuid
                                           : host_id.empty() || p.host_id.empty() || p.host_id == host_id;
    if (mine) own.push_back(p);
  }
  // The runs that say where this one's level lies name it (older lines name no device or host).
  std::vector<HistoryPoint> named;
  for (const HistoryPoint& p : own)
    if (!device_uuid.empty() ? p.device_uuid == device_uuid : !host_id.empty() && p.host_id == host_id)
      named.push_back(p);
  std::map<std::string, HistoryNoise> out;
  // Between GPUs: every run of the machine that names its GPU, grouped by case and GPU; on a CPU
  // between hosts likewise.
  const bool gpus = !device_uuid.empty();
  std::map<std::string, std::map<std::string, std::map<std::string, std::vector<double>>>> by_case;
  if (gpus || !host_id.empty())
    for (const HistoryPoint& p : points)
      if (const std::string& where = gpus ? p.device_uuid : p.host_id; !where.empty())
        for (const auto& [metric, value] : p.medians) by_case[p.case_id][metric][where].push_back(value);
  const auto devices_of = [&](const std::string& case_id, const std::string& metric) -> std::optional<DeviceSpread> {
    const auto c = by_case.find(case_id);
    if (c == by_case.end()) return std::nullopt;
    const auto m = c->second.find(metric);
    return m == c->second.end() ? std::nullopt
                                : spread_between(m->second, gpus ? "devices of the history's runs"
                                                                 : "hosts of the history's runs");
  };
  for (const CaseHistory& h : analyse_history(points, thresholds, nullptr, {})) {
    if (auto across = devices_of(h.case_id, h.metric)) {
      HistoryNoise& n = out[h.case_id];
      n.metric = h.metric;
      n.devices = std::move(across);
    }
  }
  for (auto& [case_id, runs] : history_by_case(named)) out[case_id].own_runs = std::move(runs);
  for (const CaseHistory& h : analyse_history(same_code(own), thresholds, nullptr, {})) {
    // The newest runs, steps and all: a step moves one difference of neighbouring runs, which
    // series_noise_pct's 75th percentile does not follow once there are enough of them (a
    // change point located a run early would put a step inside a newest segment of five).
    const int runs = std::min<int>(static_cast<int>(h.values.size()), kHistoryNoiseWindow);
    if (runs < kHistoryNoiseRuns) continue;
    HistoryNoise& n = out[h.case_id];
    n.metric = h.metric;
    n.runs = runs;
    n.sigma_pct = series_noise_pct(std::span<const double>(h.values).last(runs));
    n.bound_pct = n.sigma_pct * sigma_upper_factor(runs, kSigmaConfidence);
    if (const Segment& newest = h.segmentation.segments.back();
        newest.end - newest.begin >= kHistoryNoiseRuns) {
      std::vector<double> apart;
      for (int i = newest.begin; i < newest.end; ++i)
        apart.push_back(100 * std::fabs(h.values[i] / newest.median - 1));
      std::nth_element(apart.begin(), apart.begin() + 1, apart.end(), std::greater<>());
      n.apart_pct = apart[1];
    }
    char why[160];
    std::snprintf(why, sizeof why, "the history's %d runs on this machine spread %.2g%% (%g%% bound %.2g%%)", runs,
                  n.sigma_pct, 100 * kSigmaConfidence, n.bound_pct);
    n.why = why;
  }
  return out;
}

}  // namespace perfgate
