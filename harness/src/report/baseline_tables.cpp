#include "report/baseline_tables.h"

#include <cstdio>

#include "core/units.h"
#include "perfgate/metric_names.h"
#include "report/text_table.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

std::string metric_value(const std::string& metric, double value) {
  if (metric.ends_with("_ns")) return format_duration_ns(value);
  if (metric == metric::bandwidth_gbps) return format_bandwidth(value);
  if (metric == metric::gflops) return format_flops(value);
  char text[32];
  std::snprintf(text, sizeof text, metric.starts_with("pct_") ? "%.1f%%" : "%.4g", value);
  return text;
}

std::string change_text(const DiffRow& row) {
  if (!row.change_pct) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", *row.change_pct);
  return text;
}

std::string median_of(const BaselineCase& c, const std::string& metric) {
  auto it = c.runs.find(metric);
  return it == c.runs.end() ? "-" : metric_value(metric, median(pooled(it->second)));
}

std::string sample_count(const BaselineCase& c) {
  auto it = c.runs.find(metric::latency_ns);
  if (it == c.runs.end()) return "-";
  return std::to_string(it->second.size()) + " x " +
         std::to_string(pooled(it->second).size() / it->second.size());
}

std::string short_commit(const std::string& commit) { return commit.substr(0, 12); }

}  // namespace

std::string render_candidate_diff(const Candidate& candidate, const std::vector<DiffRow>& rows,
                                  bool digest_ok, bool markdown) {
  TextTable table({{"case"},
                   {"metric"},
                   {"old median", TextTable::Align::right},
                   {"new median", TextTable::Align::right},
                   {"change", TextTable::Align::right},
                   {"note"}});
  for (const auto& row : rows)
    table.add_row({row.case_id, row.metric, row.old_median ? metric_value(row.metric, *row.old_median) : "-",
                   metric_value(row.metric, row.new_median), change_text(row), row.note});
  const std::string digest =
      digest_ok ? "digest ok" : "DIGEST MISMATCH: changed after proposing, approve will refuse it";
  const std::string about = std::to_string(candidate.cases.size()) + " cases, " +
                            std::to_string(candidate.run_ids.size()) + " separate runs, measured " +
                            candidate.measured_at +
                            (candidate.commit.empty() ? "" : " at commit " + short_commit(candidate.commit)) +
                            ", " + digest;
  if (markdown)
    return "### Baseline candidate for `" + candidate.machine_id() + "`\n\n" + about + "\n\n" +
           table.markdown();
  return "candidate for " + candidate.machine_id() + ": " + about + "\n" + table.text();
}

std::string render_baselines(const std::vector<BaselineCase>& cases, const std::vector<std::string>& catches,
                             bool markdown) {
  TextTable table({{"machine"},
                   {"case"},
                   {"runs x samples", TextTable::Align::right},
                   {"latency", TextTable::Align::right},
                   {"bandwidth", TextTable::Align::right},
                   {"catches", TextTable::Align::right},
                   {"approved by"},
                   {"at"},
                   {"reason"}});
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const BaselineCase& c = cases[i];
    const std::string resolution = i < catches.size() && !catches[i].empty() ? ">= " + catches[i] : "-";
    table.add_row({c.fingerprint.machine_id, c.id, sample_count(c), median_of(c, metric::latency_ns),
                   median_of(c, metric::bandwidth_gbps), resolution, c.approval.by, c.approval.at,
                   c.approval.reason});
  }
  const std::string count = std::to_string(cases.size()) + " approved cases";
  if (markdown)
    return "### Approved baselines\n\n" + count + "\n\n" + (table.empty() ? "" : table.markdown());
  return table.empty() ? count + "\n" : table.text() + count + "\n";
}

}  // namespace perfgate
