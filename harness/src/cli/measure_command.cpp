// perfgate measure CASE --json FILE (hidden): one fresh measurement of one case, written as a
// results file and not judged. `check` and `run` start it to confirm a regression in a process
// of its own (cli/fresh_measurement.h): new buffers, a new pipeline, new memory placement, so a
// state a process happened to start in cannot fail a tight gate twice. The parent holds the
// device lock and stays idle while this runs, so it takes no lock itself.
#include <CLI/CLI.hpp>
#include <memory>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_info.h"
#include "measure/measure_case.h"
#include "measure/peaks.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

struct MeasureFlags {
  std::string case_id;
  std::string calibration_reference;  // the reference the case's baseline was calibrated against
  CommonOptions common;  // device, seed, thresholds (sampling), cache dir, json
};

int measure_main(const MeasureFlags& flags, const Context& context) {
  const CaseSpec spec = parse_case_id(flags.case_id);
  OpenedDevice opened = open_backend(spec.backend, flags.common.device);
  if (!opened.device)
    throw Error("no " + std::string(to_string(spec.backend)) + " device: " + opened.missing_reason);
  Device& device = *opened.device;
  SamplingSettings sampling = ThresholdSet::load(flags.common.thresholds_dir)
                                        .resolve(spec.id, device.fingerprint().machine_id)
                                        .sampling;
  if (sampling.calibrate) sampling.calibration_reference = flags.calibration_reference;
  const Peaks peaks = device_peaks(device, flags.common.cache_path()).peaks;
  RunResult run = new_run(device.fingerprint(), context.project_dir);
  run.cases.push_back(measure_case(device, spec, sampling, peaks, flags.common.input_seed()));
  run.cases.back().device_uuid = device.fingerprint().device_uuid;
  write_results(flags.common.json_file, run);
  return 0;
}

}  // namespace

void add_measure_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<MeasureFlags>();
  CLI::App* measure = app.add_subcommand("measure", "One fresh measurement of a case, not judged (internal)");
  measure->group("");  // hidden: `check` and `run` start it to confirm a regression
  flags->common.thresholds_dir = context.thresholds_dir();
  measure->add_option("case", flags->case_id, "Case id")->required();
  measure->add_option("--device", flags->common.device, "Vulkan device: index or part of its name");
  measure->add_option("--seed", flags->common.seed, "Seed of the random inputs (default: fresh)");
  measure->add_option("--thresholds", flags->common.thresholds_dir, "Thresholds folder (YAML): the sampling");
  measure->add_option("--calibrate-against", flags->calibration_reference,
                      "Calibration reference case id (the baseline's), where the case is calibrated");
  add_cache_dir_option(*measure, flags->common);
  measure->add_option("--json", flags->common.json_file, "Write the result to FILE")->required();
  measure->callback([flags, &context] { context.exit_code = measure_main(*flags, context); });
}

}  // namespace perfgate
