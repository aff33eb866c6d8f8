#pragma once
// `--trace FILE.json`: a run as a timeline in the Chrome Trace Event Format (the JSON that
// Perfetto, chrome://tracing and speedscope open).
//
// perfgate times batches of back-to-back dispatches, not each dispatch, so the timeline is laid
// out from what a case records, in the order it was measured: one dispatch per hot sample, as
// long as that sample's GPU time per dispatch, as a complete ("X") event on the device's queue
// track; the plan's stages nested inside it in their measured proportions; the host's encode
// time before it on a host track; where the host's wall time per dispatch exceeds the GPU's, the
// queue idles for the difference (a visible gap: launch overhead); the GPU's clocks (where NVML
// tells them) as counter ("C") events; each case a slice on a cases track with its verdict.
#include <string>

#include "perfgate/result.h"

namespace perfgate {

std::string render_chrome_trace(const RunResult& run);

}  // namespace perfgate
