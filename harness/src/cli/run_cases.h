#pragma once
// What `perfgate run` and `perfgate check` share: measuring and judging the cases of a backend
// into a run, then writing, printing and the exit code.
#include <string>
#include <vector>

#include "cli/commands.h"
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
  std::string trace_file;  // --trace: the run as a Chrome Trace Event Format timeline
  bool no_judge = false;
  // check under `ctest --resource-spec-file`: the `gpus` id CTest gave this test; its device
  // is common.device. "" without a resource allocation.
  std::string gpu_slot;
  // For the commands printed when cases have no baseline: this command as typed and the folders
  // it uses unless told otherwise (the printed commands name only folders that differ).
  std::string program = "perfgate";
  std::string default_baselines_dir;
  std::string default_thresholds_dir;
};

// The RunFlags fields a command's Context fills in.
void set_context(RunFlags& flags, const Context& context);

// Measures and judges the cases of one backend; appends to `run`. `check_output`: the lines
// CTest reads instead of a progress line.
void run_backend(const RunFlags& flags, Backend backend, const std::vector<CaseSpec>& cases, RunResult& run,
                 bool check_output);

// Writes the results files the flags name, prints the run (a table, or per case the check lines
// and CTest measurements) and returns the exit code.
int finish(const RunFlags& flags, RunResult& run, bool check_output);

}  // namespace perfgate
