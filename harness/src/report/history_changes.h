#pragma once
// What `perfgate history --changes` prints: per case its segments' story (change points with
// run, commit range, medians before and after, magnitude and its interval, known boundaries,
// acknowledgements) and the newest segment's drift; as a text table, as JSON, and as the
// Markdown section of a report.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judge/history_analysis.h"

namespace perfgate {

std::string render_changes_table(const std::vector<CaseHistory>& histories);
nlohmann::json changes_json(const std::vector<CaseHistory>& histories);
// "## History" with one row per change point and per failing drift; "" when there is none.
std::string render_history_markdown(const std::vector<CaseHistory>& histories);

// "regression (new kernel source) (another device)": what a change point is, for every view.
std::string change_kind(const HistoryChange& c);

// "bisected to 1a2b3c4d5e (+31.2%)": a change point's culprits, for the table and the HTML.
std::string bisected_text(const Bisected& bisected);

// A value of the judged metric: a duration for latency_ns, a plain ratio for relative_latency.
std::string format_history_value(const std::string& metric, double value);

}  // namespace perfgate
