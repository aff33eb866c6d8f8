#pragma once
// What an alert says about a run, independent of the payload format: where it ran and the
// per-case deltas ordered worst first (the counts per verdict: perfgate/run_summary.h).
#include <string>
#include <vector>

#include "notify/config.h"
#include "perfgate/result.h"

namespace perfgate {

struct RunContext {
  std::string commit;  // the run's, else the CI's
  std::string branch;
  std::string ci_url;
};
RunContext run_context(const RunResult& run, const CiContext& ci);

struct Delta {
  std::string case_id;
  std::string metric;
  double baseline = 0;
  double current = 0;
  double change_pct = 0;  // positive = worse
  double threshold_pct = 0;
  std::string threshold_source;  // the resolution's origin: floor, noise, fixed, unstable
  double floor = 0;              // the absolute floor passed ("absolute floor"), else 0
  Verdict verdict = Verdict::pass;
  std::string reason;  // the judgement's one line, e.g. which floor a median fell below
};

// One entry per judgement of every case: worse verdicts first (result.h's severity), then
// larger changes first.
std::vector<Delta> ordered_deltas(const RunResult& run);

// Cases that failed outright (verdict error): they have no deltas, only a message.
std::vector<const CaseResult*> failed_cases(const RunResult& run);

}  // namespace perfgate
