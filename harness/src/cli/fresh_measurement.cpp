#include "cli/fresh_measurement.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/child_process.h"
#include "core/scratch_dir.h"
#include "perfgate/error.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

// A double as text that reads back as the same double.
std::string exact_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

std::vector<std::string> fresh_process_args(const RunFlags& flags, const CaseSpec& spec, std::uint64_t seed,
                                            const SamplingSettings& sampling, const std::string& json_file) {
  std::vector<std::string> args{"measure", spec.id, "--seed", std::to_string(seed), "--json", json_file,
                                "--thresholds", flags.common.thresholds_dir};
  if (!flags.common.device.empty()) args.insert(args.end(), {"--device", flags.common.device});
  if (!sampling.calibrate)
    args.push_back("--alone");
  else if (!sampling.calibration_reference.empty())
    args.insert(args.end(), {"--calibrate-against", sampling.calibration_reference});
  // A check's fresh process stops on a decided verdict as the check did: it is told the check's
  // least allowance and the baseline's median of the series sampled (measure/precision_criterion.h).
  if (sampling.verdict_allowance_pct > 0)
    args.insert(args.end(), {"--verdict-allowance", exact_text(sampling.verdict_allowance_pct)});
  if (sampling.verdict_baseline_median > 0) {
    args.insert(args.end(), {"--verdict-median", exact_text(sampling.verdict_baseline_median)});
    if (sampling.verdict_baseline_relative) args.push_back("--verdict-relative");
  }
  args.insert(args.end(), {"--cache-dir", flags.common.cache_path().string()});
  return args;
}

CaseResult measure_in_fresh_process(const RunFlags& flags, const CaseSpec& spec, std::uint64_t seed,
                                    const SamplingSettings& sampling) {
  CaseResult failed = result_for(spec);
  failed.verdict = Verdict::error;
  try {
    ScratchDir scratch("perfgate-confirm");
    const std::filesystem::path json = scratch.path() / "fresh.json";
    const ChildResult child = run_self(fresh_process_args(flags, spec, seed, sampling, json.string()), false);
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
