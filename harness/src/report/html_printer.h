#pragma once
// A run as one self-contained HTML page (inline CSS and SVG, no script, nothing fetched): counts
// and machine, the verdict table worst first, a roofline plot, per-case distributions of
// baseline and current samples, sweep plots, history trends and the breakdown of
// multi-stage cases.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "judge/history_analysis.h"
#include "perfgate/result.h"
#include "store/history.h"

namespace perfgate {

struct HtmlInputs {
  // A results file whose samples are drawn beside the run's as the baseline (optional).
  const RunResult* baseline = nullptr;
  // Where those samples come from, as HTML: "run <code>ID</code>" (the default), "the approved
  // baselines in <code>DIR</code>".
  std::string baseline_from;
  // Per case id, its history oldest first (store/history.h); cases without one get no trend.
  std::map<std::string, std::vector<HistoryPoint>> history;
  // The same history judged (judge/history_analysis.h): its trends mark segments and change points.
  std::vector<CaseHistory> history_changes;
};

// The most cases one page draws: about 15 MB of HTML and SVG, what a browser still opens and a
// person can scroll (1e5 cases made a 283 MB page). docs/reports.md says so.
constexpr std::size_t kMaxHtmlCases = 5000;

// Throws Error when `cases` cases are more than a page draws: called before anything is rendered
// (or appended to a history), so a report too large to draw says so at once.
void check_html_size(std::size_t cases, const std::string& what);

// Throws as check_html_size for a run of too many cases.
std::string render_html(const RunResult& run, const HtmlInputs& inputs = {});

}  // namespace perfgate
