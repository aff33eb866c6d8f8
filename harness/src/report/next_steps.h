#pragma once
// The last lines of a run or check that found cases with no baseline for this machine: said once
// for the run, with the commands that start gating here, spelled so they can be pasted.
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

// How this run was invoked, so the printed commands measure the same cases in the same way.
struct InvocationArgs {
  std::string program;                 // argv[0] as typed: "build/perfgate"
  std::vector<std::string> selection;  // what selects the same cases: globs, --kernel, --backend, --axis
  std::vector<std::string> measuring;  // --thresholds, --cache-dir where not the defaults
  std::vector<std::string> place;  // --device, --baselines where given: propose, approve and check take them
  std::string baselines_dir =
      "baselines";  // where approving writes: "baselines" in the project, else as given
};

// Nothing when every case was judged (or none could be); else one paragraph: how many cases
// have no baseline on this machine, then `baseline propose` and `baseline approve` for its
// machine id, the folder to commit (`how.baselines_dir`/<machine>/), and the A/B alternative (`check --base
// BUILD`). `machine_has_baselines`: the baselines folder already holds some for this machine (then only the
// missing cases are new).
std::string render_next_steps(const RunResult& run, const InvocationArgs& how, bool machine_has_baselines);

// `arg` quoted for a POSIX shell where it needs it ('copy/cpu/*' -> "'copy/cpu/*'").
std::string shell_word(const std::string& arg);

}  // namespace perfgate
