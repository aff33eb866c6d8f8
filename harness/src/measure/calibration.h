#pragma once
// Calibrated measurement (sampling.calibrate): a case is sampled in rounds interleaved with a
// reference workload on the same device, and its time relative to the reference's at the same
// moment is what gets judged (metric relative_latency). On a shared machine, what slows
// everything (a busy neighbour, a slow period of the VM) slows both sides of a round alike and
// cancels; the raw latency is still measured and reported.
//
// The references are the calibration_stream (memory-bound) and calibration_fma (compute-bound)
// kernels: code of no gated kernel, so a change to the case's own kernel never moves them.
#include <optional>
#include <string>

#include "measure/case_selection.h"
#include "measure/device.h"

namespace perfgate {

struct Peaks;

// The reference that calibrates `spec` on `device`. `pinned` (SamplingSettings::calibration_reference,
// the reference the case's baseline was measured against) is taken as it is: a relative time
// compares only with relative times against the same reference, and the peaks that choose one
// differ between machines of one id and between moments of one machine (attention_scores on
// llvmpipe, 12.8 flops/byte, sat on either side of a 2-core VM's ridge). Unpinned: the stream
// moving the bytes of the case's cost model (the same cache level) for a memory-bound case, the
// multiply-add chain for a compute-bound one (arithmetic intensity at or above the roofline's
// ridge, or 8 flops/byte when the peaks are unknown). nullopt when the binary holds no reference
// for the device's backend; an Error when `pinned` names no reference of this backend.
std::optional<CaseSpec> calibration_reference(const CaseSpec& spec, const Device& device, const Peaks& peaks,
                                              const std::string& pinned = "");

// The reference's batch in calibrated sampling: at least `min_dispatches` (the sampler's own
// batch_min_time_ms sizing) and enough dispatches of `reference_dispatch_ns` to last
// kCalibrationShare of the case's batch (`case_batch_ns`), at most 2^20 dispatches. On the 2-core
// CI-class machine a 2 ms reference beside a case dispatch of tens of ms (attention_softmax and
// sampling on the CPU, attention_weighted_sum on llvmpipe) caught another moment of the machine
// than the case, and their ratio moved with load far more than the case did.
inline constexpr double kCalibrationShare = 0.5;
int calibration_batch(int min_dispatches, double reference_dispatch_ns, double case_batch_ns);

}  // namespace perfgate
