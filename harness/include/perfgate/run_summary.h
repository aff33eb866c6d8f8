#pragma once
// One summary of a run, for every printer, alert and exit code: its worst verdict, the count of
// each verdict, its cases worst first, and a case's medians and main judgement.
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct RunSummary {
  int cases = 0;
  Verdict worst = Verdict::skipped;  // the worst case verdict (severity); skipped without cases
  std::map<Verdict, int> counts;     // cases per verdict: every verdict, zero when none

  // (verdict, cases) for each verdict present in the run, worst first.
  std::vector<std::pair<Verdict, int>> present_worst_first() const;
  // The worst verdict's exit code (result.h's exit_code); 0 for a run without cases.
  int exit_code(bool require_baseline) const;
  // The exit code of a whole run (`perfgate run`, `compare`) rather than one check: cases that
  // merely lack a baseline or a device (77, a CTest skip) are not a failure there, so 0.
  int run_exit_code(bool require_baseline) const;
};

RunSummary summarize_run(const RunResult& run);

// Worse verdicts first (result.h's severity), then larger latency changes first; ties keep the
// run's order.
std::vector<const CaseResult*> worst_first(const RunResult& run);

const Metric* find_metric(const CaseResult& result, std::string_view name);
// The metric's median, or 0 when the case has no such metric.
double median_of(const CaseResult& result, std::string_view name);
// The latency judgement, else the first judgement, else null.
const Judgement* main_judgement(const CaseResult& result);
// The judgement that gave the case its verdict: the main one where its verdict is the case's,
// else the one of the case's verdict that moved furthest (a bandwidth floor, say, where the time
// passed); else the main one. What a line about the verdict quotes.
const Judgement* deciding_judgement(const CaseResult& result);
// The judgement of `metric`, or null.
const Judgement* judgement_of(const CaseResult& result, std::string_view metric);

}  // namespace perfgate
