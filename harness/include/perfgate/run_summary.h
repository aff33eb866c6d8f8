#pragma once
// What every report printer asks of a run: its cases worst first, the count of each verdict,
// and a case's medians and latency judgement.
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

// Worse verdicts first (result.h's severity), then larger latency changes first; ties keep the
// run's order.
std::vector<const CaseResult*> worst_first(const RunResult& run);

// (verdict, cases) for each verdict present in the run, worst first.
std::vector<std::pair<Verdict, int>> verdict_counts(const RunResult& run);

const Metric* find_metric(const CaseResult& result, std::string_view name);
// The metric's median, or 0 when the case has no such metric.
double median_of(const CaseResult& result, std::string_view name);
// The latency judgement, else the first judgement, else null.
const Judgement* main_judgement(const CaseResult& result);

}  // namespace perfgate
