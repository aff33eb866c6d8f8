#include "report/fleet_markdown.h"

#include <fmt/format.h>

#include "core/resolution.h"
#include "perfgate/run_summary.h"
#include "report/markdown_text.h"

namespace perfgate {
namespace {

bool loud(Verdict verdict) { return verdict == Verdict::regressed || verdict == Verdict::error; }

std::string counts_text(const std::vector<std::pair<Verdict, int>>& counts) {
  std::string line;
  for (const auto& [verdict, n] : counts) {
    const std::string part = fmt::format("{} {}", n, to_string(verdict));
    line += (line.empty() ? "" : " · ") + (loud(verdict) ? "**" + part + "**" : part);
  }
  return line.empty() ? "no cases" : line;
}

}  // namespace

std::string render_fleet_markdown(const FleetView& view) {
  std::string out = fmt::format("## perfgate on {} machines: {}\n\n", view.machines.size(),
                                counts_text(fleet_counts(view)));
  out += "| machine | device | run | verdicts | resolution |\n| --- | --- | --- | --- | --- |\n";
  for (std::size_t m = 0; m < view.machines.size(); ++m) {
    const RunResult& run = view.machines[m];
    const std::string resolution = run_resolution_brief(run);
    out += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_code(view.labels[m]),
                       markdown_cell(run.fingerprint.device_name.empty() ? "-" : run.fingerprint.device_name),
                       run.run_id.empty() ? "-" : markdown_code(run.run_id),
                       counts_text(summarize_run(run).present_worst_first()),
                       resolution.empty() ? "not judged" : resolution);
  }
  if (view.case_ids.empty()) return out;
  // Resolutions are perfgate's own text ("catches >= 2.0%"): no pipe, no tag, shown as they are.

  out += "\n| case |";
  for (const std::string& label : view.labels) out += " " + markdown_code(label) + " |";
  out += "\n| --- |";
  for (std::size_t m = 0; m < view.machines.size(); ++m) out += " --- |";
  out += "\n| *resolution* |";
  for (const RunResult& run : view.machines) {
    const std::string resolution = run_resolution_brief(run);
    out += " *" + (resolution.empty() ? std::string("not judged") : resolution) + "* |";
  }
  out += "\n";
  for (const std::string& id : view.case_ids) {
    out += "| " + markdown_code(id) + " |";
    for (std::size_t m = 0; m < view.machines.size(); ++m) {
      const CaseResult* c = view.cell(m, id);
      const std::string text = markdown_cell(cell_text(c));
      out += " " + (c && loud(c->verdict) ? "**" + text + "**" : text.empty() ? "-" : text) + " |";
    }
    out += "\n";
  }
  return out;
}

}  // namespace perfgate
