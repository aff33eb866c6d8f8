#pragma once
// A case measured again in a process of its own (`perfgate measure`, hidden), to confirm a
// regression: what a process happened to start with (memory placement, the driver's choices at
// pipeline creation) is drawn afresh, which a second measurement in the same process cannot do.
// On the H100 one case landed in a mode 3.6% slower in 1 process of 12 and kept it for the
// process's lifetime (docs/performance.md, "Process-level modes").
#include <cstdint>
#include <string>
#include <vector>

#include "cli/run_flags.h"
#include "core/sampling_settings.h"
#include "measure/case_selection.h"
#include "perfgate/result.h"

namespace perfgate {

// The result of the child's measurement (not judged), or an error result saying why there is
// none. Uses the device, thresholds and cache folder of `flags`, timed as `sampling` says: alone
// where it is not calibrated, else against its calibration_reference where the case's baseline
// names one.
// The child's command line (`perfgate measure ...`, writing `json_file`): the check's device,
// thresholds, seed and calibration, and where the check stops on a decided verdict, what that
// rule reads (--verdict-allowance, --verdict-median, --verdict-relative), as exact decimals.
std::vector<std::string> fresh_process_args(const RunFlags& flags, const CaseSpec& spec, std::uint64_t seed,
                                            const SamplingSettings& sampling, const std::string& json_file);

CaseResult measure_in_fresh_process(const RunFlags& flags, const CaseSpec& spec, std::uint64_t seed,
                                    const SamplingSettings& sampling);

}  // namespace perfgate
