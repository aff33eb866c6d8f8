#include "judge/history_gate.h"

#include <fmt/format.h>

namespace perfgate {

HistoryGateVerdict judge_history_gate(const std::vector<CaseHistory>& histories,
                                      const std::string& ack_command) {
  HistoryGateVerdict v;
  int not_gated = 0;  // steps and drifts across devices the history cannot tell from them
  for (const CaseHistory& h : histories) {
    for (const HistoryChange& c : h.changes) not_gated += !c.not_gated.empty() && !c.acknowledged;
    not_gated += h.drift.exceeded && !h.drift_not_gated.empty() && !h.drift_acknowledged;
    for (const HistoryChange* c : h.open_regressions()) {
      ++v.open_regressions;
      v.lines.push_back(fmt::format("FAIL {} on {}: regression change point {} at run {} ({}..{}), {:+.1f}%",
                                    h.case_id, h.machine_id, c->id, c->run_index,
                                    c->commit_before.substr(0, 10), c->commit_after.substr(0, 10),
                                    c->step.magnitude_pct));
    }
    if (h.drift_fails()) {
      ++v.drifting;
      v.lines.push_back(fmt::format(
          "FAIL {} on {}: drift {}: the newest segment is {:+.1f}% vs the best{}, allowed {:.2g}%", h.case_id,
          h.machine_id, h.drift_id, h.drift.vs_best_pct,
          h.baseline_median > 0 ? fmt::format(" and {:+.1f}% vs the baseline", h.drift.vs_reference_pct) : "",
          h.settings.drift_max_pct));
    }
  }
  const std::string across =
      not_gated
          ? fmt::format(" ({} across devices or hosts not gated: `history --changes` says why)", not_gated)
          : "";
  if (v.passes())
    v.lines.push_back(fmt::format("gate passes: {} cases, no open regression change point, no drift{}",
                                  histories.size(), across));
  else
    v.lines.push_back(fmt::format(
        "gate fails: {} open regression change point(s), {} drifting case(s){}; accept a wanted one "
        "with `{}`",
        v.open_regressions, v.drifting, across, ack_command));
  return v;
}

}  // namespace perfgate
