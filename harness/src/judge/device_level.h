#pragma once
// A device's level: where the level a check is judged against comes from, and how far the level
// of the device (or host) the check runs on may lie from it (docs/measuring.md, "A device's
// level"). One idea covers every baseline that did not measure this device, host or period:
//
//   this device's own runs in the baseline   the level is the baseline's; bound 0
//   this device's gated runs in the history  at the baseline's kernel source and this device's
//                                            driver (identical code, so only the device differs):
//                                            the baseline's level moved by their offset, bound by
//                                            the offset's uncertainty (device_offset)
//   no run of this device                    the baseline's level, bound by how far devices of
//                                            the model (or hosts of the class) have been seen to
//                                            differ: the spread between those the baseline or the
//                                            history measured, else a stated default
//   one period of this host                  the baseline's level, bound by how far a shared
//                                            host's level moves between periods (a default)
//
// A change inside the bound cannot be told from the device's own level, so it is named, never
// failed, and (but for one period, whose baseline this host measured) never passed either; past
// the bound it is judged as any change (judge/verdict.cpp). The noise a check is allowed (its
// own runs', the pooled GPUs', the history's) is the other half, and stays where it was.
#include <optional>
#include <string>
#include <vector>

#include "store/baseline_case.h"
#include "store/history.h"

namespace perfgate {

// How far devices of one model have been seen to differ, where nothing of the model says it:
// twice the largest difference measured between GPUs of one model (4.7%, cache-resident cases on
// H100s; DRAM copy on four H200s -0.31% and -0.80%, in L2 up to 2.6%).
inline constexpr double kDevicesOfModelBoundPct = 10;
// How far hosts of one CPU class have been seen to differ: two 2-vCPU VMs of one class measured
// reduce n=2^25 39% apart, and llvmpipe on VMs of one class moved up to 47%; 50% holds every
// such move, and a 2x slowdown (+100%) still lies past it and the case's allowance together
// (core/resolution.h: in quadrature) for any case allowed under 75%.
inline constexpr double kHostsOfClassBoundPct = 50;
// How far a shared host's level moves between periods: calibrated CPU cases moved up to 36.9%
// against their reference over 45 minutes on the 2-vCPU VMs, llvmpipe's up to 47%.
inline constexpr double kPeriodsOfHostBoundPct = 50;

// Whether a baseline of a host whose cores keep the time (a CPU, llvmpipe) has measured how far
// that host's level moves between periods: not while it is one proposal's (one period) and fewer
// than kHistoryNoiseRuns of the host's gated runs are in the history. Until then a check there is
// judged within kPeriodsOfHostBoundPct (judge_case's one period), and the dashboard says so.
bool periods_unmeasured(const BaselineCase& baseline, int host_runs_in_history);
// Gated runs of a device at the baseline's kernel source that place its level: a proposal's five,
// so an offset rests on as many runs as the baseline it moves (docs/measuring.md says why five
// are enough for a DRAM-sized case on a GPU: the offset is then known to a third of its noise).
inline constexpr int kOffsetRuns = 5;

// The level a check is judged against and how well it is known (Judgement::level_source and
// level_bound_pct).
struct Level {
  std::string source = "baseline runs";  // "baseline runs" | "history runs" | "device spread" | "default bound"
  double ratio = 1;       // the baseline's level x this: this device's level (a history's offset)
  double bound_pct = 0;   // how far this device's level may lie from that, %
  std::string named_as;   // "another device" | "another host" | "one period": a change within the bound
  bool passes_within = false;  // a change within the case's own allowance passes (one period)
  std::string why;        // what the bound rests on and what would tighten it
};

// How far a device sits from its baseline, from its own gated runs.
struct DeviceOffset {
  int runs = 0;           // the device's runs at the baseline's kernel source and its driver
  double ratio = 1;       // the median of their medians over the baseline's median
  double bound_pct = 0;   // the 95% uncertainty of that ratio, % (Student's t over both sets of runs)
  std::string why;        // "this GPU's 5 runs in the history sit -0.31% from its baseline's (±0.02%)"
};

// The runs of `own` (one device's or host's gated runs of one case, oldest first) that measured
// identical code to `baseline`'s: its kernel source, the driver `driver`, started after its runs
// were measured (a new baseline starts the offsets again).
std::vector<const HistoryPoint*> offset_runs(const std::vector<HistoryPoint>& own, const BaselineCase& baseline,
                                             const std::string& driver);

// The offset of `metric` those runs measure against `baseline`'s runs of it: nullopt with fewer
// than kOffsetRuns of them. `device` names the device in `why` ("this GPU", "this host").
std::optional<DeviceOffset> device_offset(const std::vector<const HistoryPoint*>& runs, const BaselineCase& baseline,
                                          const std::string& metric, const std::string& device);

}  // namespace perfgate
