#pragma once
// What `perfgate run` and `perfgate check` share: measuring and judging the cases into a run,
// against their stored baselines or (check --base) A/B, then writing, printing and the exit code.
#include <vector>

#include "cli/commands.h"
#include "cli/run_flags.h"
#include "measure/case_selection.h"
#include "perfgate/result.h"

namespace perfgate {

// The RunFlags fields a command's Context fills in.
void set_context(RunFlags& flags, const Context& context);

// Measures and judges the cases of one backend; appends to `run`. `check_output`: a check, which
// prints the lines CTest reads instead of a progress line and samples for verdicts
// (StoredSource::sample_for_verdicts).
void run_backend(const RunFlags& flags, Backend backend, const std::vector<CaseSpec>& cases, RunResult& run,
                 bool check_output);

// Measures and judges the cases A/B, each against the base build `flags.base` at the same
// moment (a pair of `perfgate serve` children per measurement, cli/ab_check.h); appends to `run`,
// whose fingerprint is the head side's. What `check --base` runs instead of run_backend.
void run_ab(const RunFlags& flags, const std::vector<CaseSpec>& cases, RunResult& run);

// Writes the results files the flags name, prints the run (a table, or per case the check lines
// and CTest measurements) and returns the exit code.
int finish(const RunFlags& flags, RunResult& run, bool check_output);

}  // namespace perfgate
