#pragma once
// Pools the results of several separate runs into one candidate, so that run-to-run spread is
// part of the baseline. Cases the device cannot run (skipped in every run: a feature it lacks, a
// shader this build left out) are left out of it. Refuses (throws Error, nothing is written)
// when any run has a case with an error or a failed correctness check, a case without samples,
// a case skipped in some runs only, no case left, or runs that disagree on the machine or the
// cases.
#include <string>
#include <vector>

#include "perfgate/result.h"
#include "store/candidate.h"

namespace perfgate {

Candidate candidate_from_runs(const std::vector<RunResult>& runs, const std::string& created_at);
// The run's skipped cases, a line each ("\n  ID: why"); "" when none.
std::string skipped_cases(const RunResult& run);

}  // namespace perfgate
