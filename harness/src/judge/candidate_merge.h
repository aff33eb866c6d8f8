#pragma once
// Pools candidates proposed at different times on one machine into one candidate, so that its
// run-to-run noise also spans how the machine moved between those times (a shared runner's
// periods, its processes' cache modes), which runs minutes apart do not show.
#include <string>
#include <vector>

#include "store/candidate.h"

namespace perfgate {

struct NamedCandidate {
  std::string file;  // for errors
  Candidate candidate;
};

// The parts' runs, case by case, in the order given; the first part's fingerprint and commit, the
// earliest measured_at and the earliest created_at (a merge is as old as its oldest part, so
// approve's --max-age still applies). Refuses (throws Error naming the files) with fewer than two
// parts, a run given twice (one run id in two parts, or one candidate twice: its runs would count
// double and narrow the allowance), parts measured on different machines, devices, drivers or
// builds, a case missing from some parts, or a case whose source, calibration reference or cache
// residency differs. A case bound by compute or latency in any part keeps that bound (the wider
// floor, as across runs).
Candidate merge_candidates(const std::vector<NamedCandidate>& parts);

}  // namespace perfgate
