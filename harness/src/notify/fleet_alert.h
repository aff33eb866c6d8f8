#pragma once
// One alert for several machines' runs (`perfgate notify A.json B.json ...`), so a pipeline with
// a job per machine posts once: Slack gets one message whose lines name the machine of each
// case; the generic format gets schema "perfgate.fleet-alert.v1", the combined status and
// counts, and per machine the body a single-run alert would carry (docs/webhooks.md).
#include <cstdint>
#include <vector>

#include "core/device_runs.h"
#include "notify/alert.h"
#include "notify/config.h"
#include "perfgate/result.h"

namespace perfgate {

inline constexpr const char* kFleetSchema = "perfgate.fleet-alert.v1";

// The runs as one: each case id prefixed with its device's label ("llvmpipe: copy/vulkan/n=...",
// "llvmpipe (host 1f3a9c2e): ..." where devices share a machine id), the labels joined as the
// machine id, a run id made of the runs' ids (so the alert id is the same for the same runs,
// whatever their order), the first commit and branch found.
RunResult combined_run(const std::vector<DeviceRun>& devices);

// Whether `policy` asks for an alert about any of the runs.
bool should_send(const std::vector<DeviceRun>& devices, SendPolicy policy);

// One run per device, as `runs_per_device` (core/device_runs.h) makes them of the results files.
Alert make_fleet_alert(const std::vector<DeviceRun>& devices, const CiContext& ci, PayloadFormat format,
                       std::int64_t now_unix_ms);

}  // namespace perfgate
