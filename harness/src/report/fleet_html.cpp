#include "report/fleet_html.h"

#include <fmt/format.h>

#include "core/resolution.h"
#include "perfgate/run_summary.h"
#include "report/html_page.h"
#include "report/xml_escape.h"

namespace perfgate {
namespace {

std::string machines_table(const FleetView& view) {
  std::string out =
      "<h2 id=\"machines\">Machines</h2>\n<table>\n<tr><th>machine id</th><th>device</th><th>driver</th>"
      "<th>run</th><th>commit</th><th>verdicts</th><th>resolution</th></tr>\n";
  for (std::size_t m = 0; m < view.machines.size(); ++m) {
    const RunResult& run = view.machines[m];
    const Fingerprint& f = run.fingerprint;
    const std::string resolution = run_resolution_brief(run);
    out += fmt::format(
        "<tr><td class=\"id\">{}</td><td>{}</td><td>{}</td><td class=\"id\">{}</td><td class=\"id\">{}</td>"
        "<td>{}</td><td>{}</td></tr>\n",
        xml_escape(view.labels[m]), xml_escape(f.device_name), xml_escape(f.driver_version),
        xml_escape(run.run_id), xml_escape(run.commit.substr(0, 12)),
        verdict_counts(summarize_run(run).present_worst_first()),
        resolution.empty() ? "<span class=\"empty\">not judged</span>" : xml_escape(resolution));
  }
  return out + "</table>\n";
}

std::string cases_table(const FleetView& view) {
  std::string out = "<h2 id=\"cases\">Cases</h2>\n<table>\n<tr><th>case</th>";
  for (const std::string& label : view.labels) out += "<th class=\"id\">" + xml_escape(label) + "</th>";
  out += "</tr>\n<tr><td class=\"meta\">resolution</td>";
  for (const RunResult& run : view.machines) {
    const std::string resolution = run_resolution_brief(run);
    out += "<td class=\"meta\">" + (resolution.empty() ? std::string("not judged") : xml_escape(resolution)) +
           "</td>";
  }
  out += "</tr>\n";
  for (const std::string& id : view.case_ids) {
    out += "<tr><td class=\"id\">" + xml_escape(id) + "</td>";
    for (std::size_t m = 0; m < view.machines.size(); ++m) {
      const CaseResult* c = view.cell(m, id);
      if (!c) {
        out += "<td class=\"missing\">-</td>";
        continue;
      }
      std::string change;
      if (const Judgement* j = main_judgement(*c)) {
        const char* cls = c->verdict == Verdict::regressed  ? "worse"
                          : c->verdict == Verdict::improved ? "better"
                                                            : "";
        change = fmt::format(" <span class=\"{}\">{:+.1f}%</span>", cls, j->change_pct);
      }
      out += fmt::format("<td class=\"cell\" title=\"{}\">{}{}</td>",
                         xml_escape(cell_text(c) + " " + c->message), verdict_chip(c->verdict), change);
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string render_fleet_html(const FleetView& view) {
  std::string body = fmt::format("<h1>perfgate report: {} machines</h1>\n", view.machines.size());
  body += verdict_counts(fleet_counts(view));
  body += "<nav><a href=\"#cases\">Cases</a><a href=\"#machines\">Machines</a></nav>\n";
  body += cases_table(view) + machines_table(view);
  const std::string version = view.machines.empty() ? "" : view.machines.front().perfgate_version;
  return html_page(fmt::format("perfgate report: {} machines", view.machines.size()), body, version);
}

}  // namespace perfgate
