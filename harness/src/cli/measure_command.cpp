// perfgate measure CASE --json FILE (hidden): one fresh measurement of one case, written as a
// results file and not judged. `check` and `run` start it to confirm a regression in a process
// of its own (cli/fresh_measurement.h): new buffers, a new pipeline, new memory placement, so a
// state a process happened to start in cannot fail a tight gate twice. The parent holds the
// device lock and stays idle while this runs, so it takes no lock itself.

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_info.h"
#include "measure/measure_case.h"
#include "measure/peaks.h"
#include "store/result_json.h"

namespace perfgate {

int measure_main(const MeasureFlags& flags, const Context& context) {
  const CaseSpec spec = parse_case_id(flags.case_id);
  OpenedDevice opened = open_backend(spec.backend, flags.common.device);
  if (!opened.device)
    throw Error("no " + std::string(to_string(spec.backend)) + " device: " + opened.missing_reason);
  Device& device = *opened.device;
  SamplingSettings sampling = ThresholdSet::load(flags.common.thresholds_dir)
                                        .resolve(spec.id, device.fingerprint().machine_id)
                                        .sampling;
  if (flags.alone) sampling.calibrate = false;
  if (sampling.calibrate) sampling.calibration_reference = flags.calibration_reference;
  sampling.verdict_allowance_pct = flags.verdict_allowance_pct;
  sampling.verdict_baseline_median = flags.verdict_baseline_median;
  sampling.verdict_baseline_relative = flags.verdict_baseline_relative;
  const Peaks peaks = device_peaks(device, flags.common.cache_path()).peaks;
  RunResult run = new_run(device.fingerprint(), context.project_dir);
  run.cases.push_back(measure_case(device, spec, sampling, peaks, flags.common.input_seed()));
  run.cases.back().device_uuid = device.fingerprint().device_uuid;
  write_results(flags.common.json_file, run);
  return 0;
}

}  // namespace perfgate
