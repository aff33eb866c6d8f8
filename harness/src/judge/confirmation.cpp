#include "judge/confirmation.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

std::string signed_pct(double pct) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f%%", pct);
  return buffer;
}

// Whether `fresh` bears the first measurement's regression out: it regressed, or the change of
// the first's judged metric is past the allowance the first had. On llvmpipe 4 of 13 checks of a
// copy doing +26% more work passed because their fresh processes, reading +21.7..+27.7% against
// first allowances of 10-17%, had spreads that allowed more; in the A/A checks of every study on
// the performance page since 2026-11-25, 19 of 19 first regressions that a fresh process did not
// confirm read within the first's allowance there (docs/performance.md, "Confirmed past the
// first's allowance").
bool bears_out(const CaseResult& fresh, const Judgement* fresh_main, const Judgement* first) {
  if (fresh.verdict == Verdict::regressed) return true;
  return first && fresh_main && fresh_main->metric == first->metric && first->threshold_pct > 0 &&
         fresh_main->change_pct > first->threshold_pct;
}

}  // namespace

bool needs_confirmation(const CaseResult& result) {
  return result.verdict == Verdict::regressed &&
         std::any_of(result.judgements.begin(), result.judgements.end(), [](const Judgement& j) {
           return j.verdict == Verdict::regressed && j.baseline_median != 0;
         });
}

void apply_confirmations(CaseResult& result, const std::vector<CaseResult>& fresh, const std::string& what) {
  if (fresh.empty()) return;
  result.first_verdict = result.verdict;
  const std::string first = result.message;
  const Judgement* first_main = main_judgement(result);
  std::string changes;
  for (const CaseResult& f : fresh) {
    const Judgement* main = main_judgement(f);
    result.confirmations.push_back({f.verdict, main ? main->metric : "", main ? main->change_pct : 0});
    if (f.verdict == Verdict::error || f.verdict == Verdict::skipped) {
      result.message = "unconfirmed (a " + what + " ended in " + std::string(to_string(f.verdict)) +
                       ": " + f.message + "): " + first;
      return;
    }
    // A fresh measurement too busy to judge (its own rounds spread past load_max_pct) is no
    // evidence against the first: beside a parallel build 2 of 17 checks of twice copy's work
    // passed when their fresh process read +378% with a spread past the cap.
    if (f.verdict == Verdict::inconclusive &&
        std::any_of(f.judgements.begin(), f.judgements.end(), [](const Judgement& j) { return j.too_busy; })) {
      result.message = "unconfirmed (a " + what + " was too busy to judge: " + f.message + "): " + first;
      return;
    }
    std::string change = main ? main->metric + " " + signed_pct(main->change_pct) : "";
    if (!bears_out(f, main, first_main)) {
      result.verdict = Verdict::pass;
      result.message = "not confirmed: a " + what + " gave " + std::string(to_string(f.verdict)) +
                       (change.empty() ? "" : " (" + change + ")") + "; the first: " + first;
      return;
    }
    if (f.verdict != Verdict::regressed) {
      char past[96];
      std::snprintf(past, sizeof past, ", %s but past the first's allowance %.1f%%",
                    std::string(to_string(f.verdict)).c_str(), first_main->threshold_pct);
      change += past;
    }
    changes += (changes.empty() ? "" : ", ") + change;
  }
  result.message = "confirmed by " + std::to_string(fresh.size()) + " " + what +
                   (fresh.size() > 1 ? (what.ends_with("s") ? "es" : "s") : "") + " (" + changes + "): " + first;
}

}  // namespace perfgate
