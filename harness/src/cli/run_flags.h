#pragma once
// The options of `perfgate run` and `perfgate check`, built once by the CLI and passed down to
// what measures and judges their cases (cli/run_cases.h) and to the fresh processes confirming a
// regression (cli/fresh_measurement.h).
#include <string>

#include "cli/options.h"

namespace perfgate {

struct RunFlags {
  CommonOptions common;
  std::string project_dir;
  bool require_baseline = false;
  std::string base;  // check: the base build to measure against (A/B); "" = the stored baseline
  std::string results_dir;
  std::string events_file;
  std::string trace_file;  // --trace: the run as a Chrome Trace Event Format timeline
  // --history (or PERFGATE_HISTORY): this machine's history of gated runs, whose spread per case
  // is its allowance where the history holds enough runs (judge/history_noise.h). "" = none.
  std::string history_dir;
  bool no_judge = false;
  // run: measure the cases in an order shuffled by this seed (0: the suite's order). A proposal
  // on several GPUs of a host gives each run its own, so each case's runs meet the other GPU's
  // work in different cases, as checks under `ctest -j` do, and their spread counts it.
  std::uint64_t order_seed = 0;
  // check under `ctest --resource-spec-file`: the `gpus` id CTest gave this test; its device
  // is common.device. "" without a resource allocation.
  std::string gpu_slot;
  // For the commands printed when cases have no baseline: this command as typed and the folders
  // it uses unless told otherwise (the printed commands name only folders that differ).
  std::string program = "perfgate";
  std::string default_baselines_dir;
  std::string default_thresholds_dir;
};

}  // namespace perfgate
