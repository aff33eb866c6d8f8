#include "cli/fresh_measurement.h"

#include <filesystem>
#include <string>
#include <vector>

#include "cli/child_process.h"
#include "core/scratch_dir.h"
#include "perfgate/error.h"
#include "store/result_json.h"

namespace perfgate {

CaseResult measure_in_fresh_process(const RunFlags& flags, const CaseSpec& spec, std::uint64_t seed,
                                    const SamplingSettings& sampling) {
  CaseResult failed = result_for(spec);
  failed.verdict = Verdict::error;
  try {
    ScratchDir scratch("perfgate-confirm");
    const std::filesystem::path json = scratch.path() / "fresh.json";
    std::vector<std::string> args{"measure", spec.id, "--seed", std::to_string(seed), "--json", json.string(),
                                  "--thresholds", flags.common.thresholds_dir};
    if (!flags.common.device.empty()) args.insert(args.end(), {"--device", flags.common.device});
    if (!sampling.calibrate)
      args.push_back("--alone");
    else if (!sampling.calibration_reference.empty())
      args.insert(args.end(), {"--calibrate-against", sampling.calibration_reference});
    args.insert(args.end(), {"--cache-dir", flags.common.cache_path().string()});
    const ChildResult child = run_self(args, false);
    if (child.exit_code != 0 || !std::filesystem::exists(json)) {
      failed.message = "the fresh process measuring it exited " + std::to_string(child.exit_code);
      return failed;
    }
    RunResult run = read_results(json);
    if (run.cases.size() != 1) {
      failed.message = "the fresh process wrote " + std::to_string(run.cases.size()) + " results, not 1";
      return failed;
    }
    return std::move(run.cases.front());
  } catch (const Error& e) {
    failed.message = std::string("no fresh process: ") + e.what();
    return failed;
  }
}

}  // namespace perfgate
