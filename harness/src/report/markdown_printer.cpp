#include "report/markdown_printer.h"

#include <fmt/format.h>

#include "core/resolution.h"
#include "core/units.h"
#include "perfgate/run_summary.h"
#include "report/breakdown.h"
#include "report/markdown_sections.h"
#include "report/markdown_text.h"
#include "stats/geometric_mean.h"

namespace perfgate {

std::string render_markdown(const RunResult& run) {
  std::string out = "## perfgate: " + markdown_counts_line(run) + "\n\n";
  out += markdown_machine_line(run) + "\n\n";
  if (const auto geomean = run_geometric_mean(run)) out += geometric_mean_text(*geomean) + "\n\n";
  if (const std::string resolution = run_resolution(run); !resolution.empty())
    out += markdown_cell(resolution) + "\n\n";
  const auto order = worst_first(run);
  if (!order.empty()) {
    out += markdown_verdict_head();
    for (const CaseResult* c : order) out += markdown_verdict_row(*c);
  }

  std::string why, ab;
  for (const CaseResult* c : order) {
    why += markdown_why_item(*c);
    ab += markdown_ab_row(*c);
  }
  if (!why.empty()) out += markdown_why_head() + why;
  if (!ab.empty()) out += markdown_ab_head() + ab;

  for (const Breakdown& b : breakdowns_of(run)) {
    out += "\n### Breakdown of " + markdown_code(b.case_id, CodeIn::prose) +
           "\n\n| stage | time | % of total | bound |\n| --- | ---: | ---: | --- |\n";
    for (std::size_t i = 0; i < b.stages.size(); ++i) {
      const StageTiming& s = b.stages[i];
      const std::string name =
          i == b.bottleneck ? "**" + markdown_cell(s.name) + "**" : markdown_cell(s.name);
      out += fmt::format("| {} | {} | {:.1f}% | {} |\n", name, format_duration_ns(s.latency_ns),
                         s.pct_of_total, s.bound.empty() ? "-" : s.bound);
    }
    out += "\nBottleneck: " + markdown_cell(b.bottleneck_reason) + "\n";
    if (const std::string host = describe_host_overhead(b); !host.empty()) out += "Host: " + host + "\n";
  }
  return out;
}

}  // namespace perfgate
