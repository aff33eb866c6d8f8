#pragma once
// Measures one case on a device: correctness on fresh random input first, then hot and cold
// timings, then the derived metrics. Judging against a baseline happens above this.
#include <cstdint>
#include <memory>

#include "measure/case_selection.h"
#include "measure/device.h"
#include "measure/sampler.h"
#include "perfgate/result.h"

namespace perfgate {

// Never throws for a kernel's failure: a wrong result or an exception becomes Verdict::error,
// a case the device cannot hold becomes Verdict::skipped.
CaseResult measure_case(Device& device, const CaseSpec& spec, const SamplingSettings& options,
                        const Peaks& peaks, std::uint64_t seed);

// The first half of measure_case: fills result's identity, fresh random inputs from `seed`,
// prepares the case on the device and checks one run against the float64 reference. Returns
// nullptr with result.verdict skipped or error when the case cannot be measured; throws what the
// kernel or device throws (measure_case turns that into a verdict).
std::unique_ptr<PreparedCase> prepare_verified(Device& device, const CaseSpec& spec, std::uint64_t seed,
                                               CaseResult& result);

// Fills bandwidth_gbps, gflops, pct_peak_bw, arithmetic intensity and bound from latency_ns, and
// each stage's bound (classify_stages).
void derive_metrics(CaseResult& result, const Peaks& peaks);

}  // namespace perfgate
