#pragma once
// The tables of `perfgate baseline`: what a candidate would change (diff) and what is approved
// (show), for a terminal or as Markdown for a pull request.
#include <string>
#include <vector>

#include "store/baseline.h"
#include "store/baseline_diff.h"
#include "store/candidate.h"

namespace perfgate {

// A heading (machine, commit, runs, digest state), then case, metric, old, new, change %, note.
std::string render_candidate_diff(const Candidate& candidate, const std::vector<DiffRow>& rows,
                                  bool digest_ok, bool markdown);
// Machine, case, runs x samples, latency and bandwidth medians, the resolution (`catches`, one
// text per case, e.g. "2.0% floor"; empty: "-"), who approved it, when and why.
std::string render_baselines(const std::vector<BaselineCase>& cases, const std::vector<std::string>& catches,
                             bool markdown);

}  // namespace perfgate
