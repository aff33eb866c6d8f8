#pragma once
// The rule `perfgate history --gate` applies to a judged history: it fails on a regression change
// point nobody acknowledged, or on drift past its allowance; one line per reason, for a person.
#include <string>
#include <vector>

#include "judge/history_analysis.h"

namespace perfgate {

struct HistoryGateVerdict {
  int open_regressions = 0;
  int drifting = 0;
  std::vector<std::string> lines;  // "FAIL ..." per reason, then the summary line
  bool passes() const { return open_regressions + drifting == 0; }
};

// `ack_command` is the command the failing summary says accepts a wanted change, as the user
// would type it.
HistoryGateVerdict judge_history_gate(const std::vector<CaseHistory>& histories, const std::string& ack_command);

}  // namespace perfgate
