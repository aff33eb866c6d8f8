#include "report/markdown_sections.h"

#include <fmt/format.h>

#include "core/resolution.h"
#include "core/units.h"
#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"
#include "report/ab_lines.h"
#include "report/markdown_text.h"

namespace perfgate {

std::string markdown_counts_line(const RunResult& run) {
  std::string line;
  for (const auto& [verdict, n] : summarize_run(run).present_worst_first()) {
    const bool loud = verdict == Verdict::regressed || verdict == Verdict::error;
    const std::string part = fmt::format("{} {}", n, to_string(verdict));
    line += (line.empty() ? "" : " · ") + (loud ? "**" + part + "**" : part);
  }
  return line.empty() ? "no cases" : line;
}

std::string markdown_machine_line(const RunResult& run) {
  const Fingerprint& f = run.fingerprint;
  std::string line = "Machine " + markdown_code(f.machine_id, CodeIn::prose);
  if (!f.device_name.empty()) line += " (" + markdown_cell(f.device_name);
  if (!f.driver_version.empty()) line += ", driver " + markdown_cell(f.driver_version);
  if (!f.device_name.empty()) line += ")";
  if (!f.cpu_model.empty() && f.cpu_model != f.device_name)
    line += fmt::format(" · CPU {} ({} threads)", markdown_cell(f.cpu_model), f.cpu_threads);
  if (!run.commit.empty()) line += " · commit " + markdown_code(run.commit.substr(0, 12), CodeIn::prose);
  if (!run.branch.empty()) line += " on " + markdown_code(run.branch, CodeIn::prose);
  if (!run.run_id.empty()) line += " · run " + markdown_code(run.run_id, CodeIn::prose);
  return line;
}

std::string markdown_verdict_head() {
  return "| verdict | case | latency | change | catches | bandwidth | % peak bw | bound |\n"
         "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
}

std::string markdown_verdict_row(const CaseResult& c) {
  std::string change = "", threshold = "", latency = "-", bandwidth = "-", peak = "-";
  if (const Judgement* j = main_judgement(c)) {
    change = fmt::format("{:+.1f}%", j->change_pct);
    threshold = resolution_text(*j);
    if (j->metric != metric::latency_ns) change += " (" + markdown_cell(j->metric) + ")";
  }
  if (const Metric* m = find_metric(c, metric::latency_ns)) latency = format_duration_ns(m->summary.median);
  if (const Metric* m = find_metric(c, metric::bandwidth_gbps))
    bandwidth = format_bandwidth(m->summary.median);
  if (const Metric* m = find_metric(c, metric::pct_peak_bw)) peak = fmt::format("{:.1f}%", m->summary.median);
  std::string verdict(to_string(c.verdict));
  if (c.verdict == Verdict::regressed || c.verdict == Verdict::error) verdict = "**" + verdict + "**";
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", verdict, markdown_code(c.id), latency,
                     change, threshold, bandwidth, peak, c.bound.empty() ? "-" : markdown_cell(c.bound));
}

std::string markdown_ab_head() {
  return "\n### A/B: base and head builds measured together\n\n"
         "| verdict | case | base | head | head/base [interval] | allowed | p | rounds | source base / head "
         "|\n"
         "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
}

std::string markdown_ab_row(const CaseResult& c) {
  if (!c.ab) return "";
  const AbComparison& ab = *c.ab;
  return fmt::format("| {} | {} | {} | {} | {} | ±{:g}% | {:.2g} | {} | {} / {} |\n", to_string(c.verdict),
                     markdown_code(c.id), format_duration_ns(ab.base.latency_ns),
                     format_duration_ns(ab.head.latency_ns), format_ab_ratio(ab), ab.max_regression_pct,
                     ab.p_value, ab.rounds, markdown_code(ab.base.source_hash.substr(0, 12)),
                     markdown_code(ab.head.source_hash.substr(0, 12)));
}

std::string markdown_why_head() { return "\n### Why\n\n"; }

std::string markdown_why_item(const CaseResult& c) {
  if (c.verdict == Verdict::pass || c.message.empty()) return "";
  return fmt::format("- **{}** {}: {}\n", to_string(c.verdict), markdown_code(c.id),
                     markdown_cell(c.message));
}

}  // namespace perfgate
