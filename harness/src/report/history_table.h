#pragma once
// `perfgate history`'s output: per case a table of its medians run after run (with the latency
// change from the previous run), or one JSON object per entry.
#include <string>
#include <vector>

#include "store/history.h"

namespace perfgate {

std::string render_history_table(const std::vector<HistoryPoint>& points);
std::string render_history_json_lines(const std::vector<HistoryPoint>& points);

}  // namespace perfgate
