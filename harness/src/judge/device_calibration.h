#pragma once
// Which devices of a machine id a case's baseline judges at their own level (judge/device_level.h),
// device by device: every GPU (where the time is the host's, as on a CPU or llvmpipe: every host)
// the baseline's runs or the case's history name, whether the baseline's runs measured it, its own
// gated runs placed it (offset_runs and device_offset, the rule a check applies), or not yet, and
// what would. What the dashboard's pages say of each machine and case (docs/dashboard.md).
#include <optional>
#include <string>
#include <vector>

#include "judge/device_level.h"
#include "store/baseline_case.h"
#include "store/history.h"

namespace perfgate {

struct DeviceCalibration {
  std::string device;              // GPU uuid, or host id
  std::string driver;              // its newest run's: the driver a check on it runs under now
  bool baseline_measured = false;  // the baseline's runs measured it: its level is theirs
  int runs = 0;                    // its runs of the case in the history
  int offset_runs = 0;             // of them, at the baseline's kernel source and `driver`, after its runs
  std::optional<DeviceOffset> offset;  // where those runs place its level, once there are kOffsetRuns
  // How its level is known, or what places it: "3 more runs of this GPU at the baseline's kernel
  // source and driver 580.95.05 place it; of its 7 runs 5 are at another kernel source".
  std::string why;

  bool calibrated() const { return baseline_measured || offset.has_value(); }
};

struct CaseCalibration {
  std::string devices_are = "GPUs";        // "GPUs" | "hosts"
  std::vector<DeviceCalibration> devices;  // the baseline's own first, then the history's by id

  int calibrated() const;
};

// The devices of `baseline`'s case on its machine: its own, and those `runs` (the case's history
// on that machine, any order) name, judged on `metric` (the series the history keeps of it).
// Runs that name no device (older lines) are no device's.
CaseCalibration case_calibration(const std::vector<HistoryPoint>& runs, const BaselineCase& baseline,
                                 const std::string& metric);

}  // namespace perfgate
