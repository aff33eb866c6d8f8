#pragma once
// What `perfgate run` and `perfgate check` share: measuring and judging the cases of a backend
// into a run, then writing, printing and the exit code.
#include <string>
#include <vector>

#include "cli/options.h"
#include "measure/case_selection.h"
#include "perfgate/result.h"

namespace perfgate {

struct RunFlags {
  CommonOptions common;
  std::string project_dir;
  bool require_baseline = false;
  std::string base;  // check: the base build to measure against (A/B); "" = the stored baseline
  std::string results_dir;
  std::string events_file;
  bool no_judge = false;
  // check under `ctest --resource-spec-file`: the `gpus` id CTest gave this test; its device
  // is common.device. "" without a resource allocation.
  std::string gpu_slot;
};

// Measures and judges the cases of one backend; appends to `run`. `check_output`: the lines
// CTest reads instead of a progress line.
void run_backend(const RunFlags& flags, Backend backend, const std::vector<CaseSpec>& cases, RunResult& run,
                 bool check_output);

// Writes the results files the flags name, prints the run (a table, or per case the check lines
// and CTest measurements) and returns the exit code.
int finish(const RunFlags& flags, RunResult& run, bool check_output);

}  // namespace perfgate
