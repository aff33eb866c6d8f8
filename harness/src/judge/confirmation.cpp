#include "judge/confirmation.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/resolution.h"
#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

std::string signed_pct(double pct) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f%%", pct);
  return buffer;
}

// What the first measurement's change had to be past to regress: its allowance, or where its
// level was a bound nothing had placed (another host or GPU, one period: judge/device_level.h)
// what that bound and the allowance reach together (catches_pct). A floor decided by its own.
double first_edge_pct(const Judgement& first) {
  return first.floor != 0 ? first.threshold_pct : catches_pct(first);
}

}  // namespace

// A fresh process judges with its own allowance, which follows its own spread: on llvmpipe 4 of
// 13 checks of a copy doing +26% more work passed because their fresh processes, reading
// +21.7..+27.7% against first allowances of 10-17%, had spreads that allowed more. In the A/A
// checks of every study on the performance page since 2026-11-25, 24 of 24 first regressions
// that a fresh process cleared read within the first's allowance there (docs/performance.md,
// "Confirmed past the first's allowance"). Where the first regressed only past its level's bound
// and its allowance together, a fresh reading within that reach is what this host's own level may
// be, and bears nothing out: beside a parallel build an A/A check of copy n=2^20 against one
// period read +218% and its fresh process +9.6%, past the bare allowance (4.6%) but within the
// 50% reach, and failed (docs/performance.md, "A fresh process within the first's reach").
bool bears_out(const CaseResult& first, const CaseResult& fresh) {
  if (fresh.verdict == Verdict::regressed) return true;
  const Judgement* judged = deciding_judgement(first);
  const Judgement* again = judged ? judgement_of(fresh, judged->metric) : nullptr;
  return again && judged->threshold_pct > 0 && again->change_pct > first_edge_pct(*judged);
}

std::string counted(std::size_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : what.ends_with("s") ? "es" : "s");
}

bool too_busy_to_judge(const CaseResult& fresh) {
  return fresh.verdict == Verdict::inconclusive &&
         std::any_of(fresh.judgements.begin(), fresh.judgements.end(),
                     [](const Judgement& j) { return j.too_busy; });
}

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
  // Each fresh measurement is quoted by the metric the first regressed on, not by its own main one
  // (a time that improved while a bandwidth floor failed).
  const Judgement* first_judged = deciding_judgement(result);
  std::string changes;
  for (const CaseResult& f : fresh) {
    const Judgement* main = first_judged ? judgement_of(f, first_judged->metric) : main_judgement(f);
    result.confirmations.push_back({f.verdict, main ? main->metric : "", main ? main->change_pct : 0});
    if (f.verdict == Verdict::error || f.verdict == Verdict::skipped) {
      result.message = "unconfirmed (a " + what + " ended in " + std::string(to_string(f.verdict)) + ": " +
                       f.message + "): " + first;
      return;
    }
    // A fresh measurement too busy to judge (its own rounds spread past load_max_pct) is no
    // evidence against the first: beside a parallel build 2 of 17 checks of twice copy's work
    // passed when their fresh process read +378% with a spread past the cap.
    if (too_busy_to_judge(f)) {
      result.message = "unconfirmed (a " + what + " was too busy to judge: " + f.message + "): " + first;
      return;
    }
    std::string change = main ? main->metric + " " + signed_pct(main->change_pct) : "";
    if (!bears_out(result, f)) {
      result.verdict = Verdict::pass;
      result.message = "not confirmed: a " + what + " gave " + std::string(to_string(f.verdict)) +
                       (change.empty() ? "" : " (" + change + ")") + "; the first: " + first;
      return;
    }
    if (f.verdict != Verdict::regressed) {
      char past[128];
      std::snprintf(
          past, sizeof past, ", %s but past the first's %s %.1f%%", std::string(to_string(f.verdict)).c_str(),
          first_judged->level_bound_pct > 0 && first_judged->floor == 0 ? "reach (level and allowance)"
                                                                        : "allowance",
          first_edge_pct(*first_judged));
      change += past;
    }
    changes += (changes.empty() ? "" : ", ") + change;
  }
  result.message = "confirmed by " + counted(fresh.size(), what) + " (" + changes + "): " + first;
}

}  // namespace perfgate
