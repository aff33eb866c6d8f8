#pragma once
// Pools the results of several separate runs into one candidate, so that run-to-run spread is
// part of the baseline. Refuses (throws Error, nothing is written) when any run has a case with
// an error or a failed correctness check, a case without samples, or runs that disagree on the
// machine or the cases.
#include <string>
#include <vector>

#include "perfgate/result.h"
#include "store/candidate.h"

namespace perfgate {

Candidate candidate_from_runs(const std::vector<RunResult>& runs, const std::string& created_at);

}  // namespace perfgate
