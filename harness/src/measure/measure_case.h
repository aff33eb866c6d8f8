#pragma once
// Measures one case on a device: correctness on fresh random input first, then hot and cold
// timings, then the derived metrics. Judging against a baseline happens above this.
#include <cstdint>

#include "measure/case_selection.h"
#include "measure/device.h"
#include "measure/sampler.h"
#include "perfgate/result.h"

namespace perfgate {

// The device's ceilings, for % of peak and the roofline. 0 = unknown.
struct Peaks {
  double bandwidth_gbps = 0;  // what the copy kernel reaches on this device
  double gflops = 0;          // what the FMA peak kernel reaches
};

// Never throws for a kernel's failure: a wrong result or an exception becomes Verdict::error,
// a case the device cannot hold becomes Verdict::skipped.
CaseResult measure_case(Device& device, const CaseSpec& spec, const SamplingSettings& options,
                        const Peaks& peaks, std::uint64_t seed);

// Fills bandwidth_gbps, gflops, pct_peak_bw, arithmetic intensity and bound from latency_ns.
void derive_metrics(CaseResult& result, const Peaks& peaks);

}  // namespace perfgate
