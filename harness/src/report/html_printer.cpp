#include "report/html_printer.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "core/resolution.h"
#include "core/units.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"
#include "report/breakdown.h"
#include "report/html_page.h"
#include "report/html_plots.h"
#include "report/xml_escape.h"
#include "stats/geometric_mean.h"

namespace perfgate {
namespace {

std::string header(const RunResult& run) {
  std::string out = "<h1>perfgate report</h1>\n";
  std::string meta = "Machine <code>" + xml_escape(run.fingerprint.machine_id) + "</code>";
  if (!run.commit.empty()) meta += " · commit <code>" + xml_escape(run.commit.substr(0, 12)) + "</code>";
  if (!run.branch.empty()) meta += " on <code>" + xml_escape(run.branch) + "</code>";
  if (!run.started_at.empty()) meta += " · " + xml_escape(run.started_at);
  out += "<p class=\"meta\">" + meta + "</p>\n";
  if (!run.run_id.empty()) out += "<p class=\"meta\">Run <code>" + xml_escape(run.run_id) + "</code></p>\n";
  out += verdict_counts(summarize_run(run).present_worst_first());
  if (const auto geomean = run_geometric_mean(run))
    out += "<p class=\"geomean\">" + xml_escape(geometric_mean_text(*geomean)) + "</p>\n";
  return out;
}

std::string machine_section(const Fingerprint& f) {
  std::string out = "<h2 id=\"machine\">Machine</h2>\n<dl class=\"machine\">\n";
  const std::pair<const char*, std::string> rows[] = {
      {"machine id", f.machine_id},
      {"backend", f.backend},
      {"device", f.device_name},
      {"driver", f.driver_version},
      {"API", f.api_version},
      {"CPU", f.cpu_model},
      {"CPU threads", f.cpu_threads ? std::to_string(f.cpu_threads) : ""},
      {"compiler", f.compiler},
      {"build type", f.build_type}};
  for (const auto& [name, value] : rows)
    if (!value.empty()) out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", name, xml_escape(value));
  return out + "</dl>\n";
}

// One line per case, sized for a 1366 px laptop screen: figures only, one unit per column
// (bandwidth always in GB/s, so a column compares at a glance); the prose (the verdict's reason,
// the p-value, why the bound, whether the working set fits in cache) is folded behind the row.
std::string verdict_table(const RunResult& run) {
  std::string out =
      "<h2 id=\"verdicts\">Verdicts</h2>\n<div class=\"wide\"><table "
      "class=\"verdicts\">\n<tr><th>verdict</th>"
      "<th>case</th><th>latency</th><th>±</th><th>change</th><th>catches</th><th>GB/s</th><th>% peak</th>"
      "<th>GFLOP/s</th><th>bound</th><th>why</th></tr>\n";
  for (const CaseResult* c : worst_first(run)) {
    std::string latency = "-", spread, change, threshold, bandwidth = "-", peak = "-", gflops = "-";
    std::vector<std::string> why;
    if (!c->message.empty()) why.push_back(xml_escape(c->message));
    if (const Metric* m = find_metric(*c, metric::latency_ns)) {
      latency = format_duration_ns(m->summary.median);
      if (m->summary.median > 0) spread = fmt::format("{:.1f}%", 100 * m->summary.mad / m->summary.median);
    }
    if (const Judgement* j = main_judgement(*c)) {
      const char* cls = j->verdict == Verdict::regressed  ? "worse"
                        : j->verdict == Verdict::improved ? "better"
                                                          : "";
      change = fmt::format("<span class=\"{}\">{:+.1f}%</span>", cls, j->change_pct);
      threshold = resolution_text(*j);
      why.push_back(fmt::format("{}: p = {:.2g}", xml_escape(j->metric), j->p_value));
    }
    if (const Metric* m = find_metric(*c, metric::bandwidth_gbps))
      bandwidth = fmt::format("{:.4g}", m->summary.median);
    if (const Metric* m = find_metric(*c, metric::pct_peak_bw))
      peak = fmt::format("{:.1f}%", m->summary.median);
    if (const Metric* m = find_metric(*c, metric::gflops)) gflops = fmt::format("{:.4g}", m->summary.median);
    if (c->fits_in_cache) why.push_back("the working set fits in the last-level cache");
    if (!c->bound_reason.empty()) why.push_back(xml_escape(c->bound) + ": " + xml_escape(c->bound_reason));
    std::string folded;
    for (const auto& line : why) folded += "<div>" + line + "</div>";
    out += fmt::format(
        "<tr class=\"row-{}\"><td>{}</td><td class=\"id\">{}</td><td class=\"num\">{}</td><td "
        "class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"why\">{}</td></tr>\n",
        to_string(c->verdict), verdict_chip(c->verdict), xml_escape(c->id), latency, spread, change,
        threshold, bandwidth, peak, gflops, c->bound.empty() ? "-" : xml_escape(c->bound),
        folded.empty() ? "" : "<details><summary>more</summary>" + folded + "</details>");
  }
  return out + "</table></div>\n";
}

std::string breakdown_section(const RunResult& run) {
  std::string body;
  for (const Breakdown& b : breakdowns_of(run)) {
    body += "<h3>" + xml_escape(b.case_id) +
            "</h3>\n<table>\n<tr><th>stage</th><th>time</th><th>% of total</th><th></th>"
            "<th>bound</th></tr>\n";
    for (std::size_t i = 0; i < b.stages.size(); ++i) {
      const StageTiming& s = b.stages[i];
      body += fmt::format(
          "<tr{}><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1f}%</td><td><span class=\"bar\" "
          "style=\"width:{:.0f}px\"></span></td><td>{}</td></tr>\n",
          i == b.bottleneck ? " class=\"bottleneck\"" : "", xml_escape(s.name),
          format_duration_ns(s.latency_ns), s.pct_of_total, 2 * s.pct_of_total,
          s.bound.empty() ? "-" : s.bound);
    }
    body += "</table>\n<p>Bottleneck: <strong>" + xml_escape(b.bottleneck_reason) + "</strong></p>\n";
    if (const std::string host = describe_host_overhead(b); !host.empty())
      body += "<p class=\"meta\">Host: " + xml_escape(host) + "</p>\n";
  }
  if (body.empty()) return "";
  return "<h2 id=\"breakdown\">Breakdown</h2>\n" + body;
}

}  // namespace

void check_html_size(std::size_t cases, const std::string& what) {
  if (cases > kMaxHtmlCases)
    throw Error(fmt::format(
        "{}: {} cases, more than the {} an HTML page draws (about 3 KB a case: 1e5 cases made a 283 MB page "
        "that no browser scrolls); nothing written: report them with --markdown or --junit, or split the run",
        what, cases, kMaxHtmlCases));
}

std::string render_html(const RunResult& run, const HtmlInputs& inputs) {
  check_html_size(run.cases.size(), "report --html of run " + run.run_id);
  const std::string roofline = html::roofline_section(run);
  const std::string distributions = html::distribution_section(run, inputs.baseline, inputs.baseline_from);
  const std::string sweeps = html::sweep_section(run);
  const std::string trends = html::history_section(run, inputs.history, inputs.history_changes);
  const std::string breakdown = breakdown_section(run);

  std::string nav = "<nav><a href=\"#verdicts\">Verdicts</a><a href=\"#machine\">Machine</a>";
  for (const auto& [section, id, title] :
       {std::tuple<const std::string&, const char*, const char*>{roofline, "roofline", "Roofline"},
        {distributions, "distributions", "Distributions"},
        {sweeps, "sweeps", "Sweeps"},
        {trends, "history", "History"},
        {breakdown, "breakdown", "Breakdown"}})
    if (!section.empty()) nav += fmt::format("<a href=\"#{}\">{}</a>", id, title);
  nav += "</nav>\n";

  std::string body = header(run) + nav + verdict_table(run) + machine_section(run.fingerprint);
  body += roofline + distributions + sweeps + trends + breakdown;
  return html_page("perfgate report: " + run.fingerprint.machine_id, body, run.perfgate_version);
}

}  // namespace perfgate
