#pragma once
// One alert for several machines' runs (`perfgate notify A.json B.json ...`), so a pipeline with
// a job per machine posts once: Slack gets one message whose lines name the machine of each
// case; the generic format gets schema "perfgate.fleet-alert.v1", the combined status and
// counts, and per machine the body a single-run alert would carry (docs/webhooks.md).
#include <cstdint>
#include <vector>

#include "notify/alert.h"
#include "notify/config.h"
#include "perfgate/result.h"

namespace perfgate {

inline constexpr const char* kFleetSchema = "perfgate.fleet-alert.v1";

// The runs as one: each case id prefixed with its machine id ("llvmpipe: copy/vulkan/n=..."),
// the machine ids joined as the machine id, a run id made of the runs' ids (so the alert id is
// the same for the same runs, whatever their order), the first commit and branch found.
RunResult combined_run(const std::vector<RunResult>& runs);

// Whether `policy` asks for an alert about any of the runs.
bool should_send(const std::vector<RunResult>& runs, SendPolicy policy);

Alert make_fleet_alert(const std::vector<RunResult>& runs, const CiContext& ci, PayloadFormat format,
                       std::int64_t now_unix_ms);

}  // namespace perfgate
