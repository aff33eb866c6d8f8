#include "report/history_changes.h"

#include <fmt/format.h>

#include "core/units.h"
#include "perfgate/metric_names.h"
#include "report/markdown_text.h"

namespace perfgate {
namespace {

std::string commit_range(const HistoryChange& c) {
  return fmt::format("{}..{}", c.commit_before.substr(0, 10), c.commit_after.substr(0, 10));
}

std::string status(const HistoryChange& c) {
  std::string s = c.acknowledged         ? "acknowledged by " + c.acknowledged->by
                  : !c.not_gated.empty() ? "not gated: " + c.not_gated
                  : c.regression         ? "OPEN"
                                         : "";
  if (c.bisected) s += (s.empty() ? "" : ", ") + bisected_text(*c.bisected);
  return s;
}

std::string drift_line(const CaseHistory& h) {
  std::string line = fmt::format("newest segment {:+.1f}% vs the best", h.drift.vs_best_pct);
  if (h.baseline_median > 0) line += fmt::format(", {:+.1f}% vs the baseline", h.drift.vs_reference_pct);
  line += fmt::format(" (drift allowed {:.2g}%, the series' noise {:.2g}%)", h.settings.drift_max_pct,
                      h.settings.noise_pct);
  if (h.drift.exceeded && !h.drift_not_gated.empty() && !h.drift_acknowledged)
    line += " drift not gated: " + h.drift_not_gated;
  else if (h.drift.exceeded)
    line +=
        h.drift_acknowledged ? " DRIFT, acknowledged by " + h.drift_acknowledged->by : " DRIFT " + h.drift_id;
  return line;
}

}  // namespace

std::string change_kind(const HistoryChange& c) {
  std::string k = c.regression ? "regression" : "improvement";
  if (!c.boundary.empty()) k += " (new " + c.boundary + ")";
  if (!c.moved.empty()) k += " (another " + c.moved + ")";
  return k;
}

std::string bisected_text(const Bisected& b) {
  std::string text = "bisected to";
  for (std::size_t i = 0; i < b.commits.size(); ++i)
    text += fmt::format("{} {}{} ({:+.1f}%)", i ? "," : "", b.commits[i].exact ? "" : "one of ..",
                        b.commits[i].sha.substr(0, 10), b.commits[i].change_pct);
  return text;
}

std::string format_history_value(const std::string& metric, double value) {
  return metric == metric::latency_ns ? format_duration_ns(value) : fixed_digits(value, 4);
}

std::string render_changes_table(const std::vector<CaseHistory>& histories) {
  std::string out;
  for (const CaseHistory& h : histories) {
    out += fmt::format("{} on {} ({}, {} runs, {} segment{})\n", h.case_id, h.machine_id, h.metric,
                       h.points.size(), h.segmentation.segments.size(),
                       h.segmentation.segments.size() == 1 ? "" : "s");
    if (!h.changes.empty())
      out += fmt::format("  {:<15}  {:>4}  {:<22}  {:>10}  {:>10}  {:>24}  {:<12}  {}\n", "id", "run",
                         "commits", "before", "after", "change (interval)", "kind", "status");
    for (const HistoryChange& c : h.changes)
      out += fmt::format(
          "  {:<15}  {:>4}  {:<22}  {:>10}  {:>10}  {:>24}  {:<12}  {}\n", c.id, c.run_index, commit_range(c),
          format_history_value(h.metric, c.step.median_before),
          format_history_value(h.metric, c.step.median_after),
          fmt::format("{:+.1f}% ({:+.1f}..{:+.1f})", c.step.magnitude_pct, c.step.low_pct, c.step.high_pct),
          change_kind(c), status(c));
    out += "  " + drift_line(h) + "\n";
  }
  return out;
}

nlohmann::json changes_json(const std::vector<CaseHistory>& histories) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseHistory& h : histories) {
    nlohmann::json segments = nlohmann::json::array(), changes = nlohmann::json::array();
    for (const Segment& s : h.segmentation.segments)
      segments.push_back({{"first_run", s.begin}, {"runs", s.end - s.begin}, {"median", s.median}});
    for (const HistoryChange& c : h.changes) {
      nlohmann::json j = change_json(c);
      j["id"] = j["change_id"];
      j.erase("change_id");
      changes.push_back(std::move(j));
    }
    cases.push_back({{"case", h.case_id},
                     {"machine_id", h.machine_id},
                     {"metric", h.metric},
                     {"runs", h.points.size()},
                     {"segments", segments},
                     {"changes", changes},
                     {"drift",
                      {{"id", h.drift_id},
                       {"vs_best_pct", h.drift.vs_best_pct},
                       {"vs_baseline_pct", h.drift.vs_reference_pct},
                       {"baseline_median", h.baseline_median},
                       {"max_pct", h.settings.drift_max_pct},
                       {"series_noise_pct", h.settings.noise_pct},
                       {"exceeded", h.drift.exceeded},
                       {"acknowledged", h.drift_acknowledged.has_value()}}}});
  }
  return {{"schema", "perfgate.history-changes.v1"}, {"cases", cases}};
}

std::string render_history_markdown(const std::vector<CaseHistory>& histories) {
  std::string rows;
  for (const CaseHistory& h : histories) {
    for (const HistoryChange& c : h.changes)
      rows += fmt::format("| {} | `{}` | {} | `{}` | {} → {} | {:+.1f}% ({:+.1f} to {:+.1f}) | {} |\n",
                          markdown_cell(h.case_id), c.id, c.run_index, markdown_code(commit_range(c)),
                          format_history_value(h.metric, c.step.median_before),
                          format_history_value(h.metric, c.step.median_after), c.step.magnitude_pct,
                          c.step.low_pct, c.step.high_pct, markdown_cell(change_kind(c) + " " + status(c)));
    if (h.drift.exceeded)
      rows +=
          fmt::format("| {} | `{}` | | | | {:+.1f}% vs best | {} |\n", markdown_cell(h.case_id), h.drift_id,
                      h.drift.vs_best_pct,
                      markdown_cell(h.drift_acknowledged
                                        ? "drift, acknowledged by " + h.drift_acknowledged->by
                                        : "drift past " + fmt::format("{:.2g}%", h.settings.drift_max_pct)));
  }
  if (rows.empty()) return "";
  return "## History\n\nChange points found in each case's history (`perfgate history --changes`); "
         "acknowledge an accepted one with `perfgate history ack ID --by NAME --reason TEXT`.\n\n"
         "| case | id | run | commits | median | change (interval) | |\n|---|---|---|---|---|---|---|\n" +
         rows;
}

}  // namespace perfgate
