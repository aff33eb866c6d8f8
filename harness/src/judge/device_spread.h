#pragma once
// How far GPUs of one model differ from each other, as a baseline measured it: where its runs
// come from several devices of its machine id (`baseline merge` of proposals made on each,
// BaselineCase::run_devices), a check on a device none of them is can be judged, with an
// allowance for what a device apart is, instead of only being named. Measured on H200s of three
// leases: copy n=2^25's level moved 0.3% between devices where one device's runs agreed to 0.02%,
// fill n=2^20's 1.3% (docs/performance.md, "GPUs of one model: the spread between devices").
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/thresholds.h"
#include "store/baseline_case.h"

namespace perfgate {

// Devices a baseline's runs must span before their spread is used: with two, the bound of one
// degree of freedom is 8 x what they showed, no allowance worth giving.
inline constexpr int kDeviceSpreadDevices = 3;

struct DeviceSpread {
  int devices = 0;        // distinct devices with runs of the metric
  int runs = 0;           // the runs the spread was measured from (spread_within)
  double sigma_pct = 0;   // sample standard deviation of their levels (median run medians), %
  double bound_pct = 0;   // its 90% upper bound from `devices` levels (stats/chi_squared.h)
  std::string why;        // "the 3 devices of its runs spread 0.31% (90% bound 0.94%; more tighten it)"
};

// The spread of `metric` between the devices of `baseline`'s runs, where at least
// kDeviceSpreadDevices of them measured it; nullopt otherwise.
std::optional<DeviceSpread> device_spread(const BaselineCase& baseline, const std::string& metric);

// The same from run medians grouped by device (a history's gated runs, judge/history_noise.h):
// each device's (or host's) level the median of its runs'. `whose` names them in `why`: "devices
// of its runs", "hosts of the history's runs".
std::optional<DeviceSpread> spread_between(const std::map<std::string, std::vector<double>>& medians_by_device,
                                           const std::string& whose);

// How far each GPU's runs spread about their own level, pooled over the GPUs a baseline's runs
// measured (BaselineCase::device_run_medians): the pooled variance of the run medians, each about
// its own GPU's mean, with the degrees of freedom of all of them. GPUs of one host proposed at
// once meet the same neighbours (each runs beside the other's work, as under `ctest -j`), so
// what one GPU's five runs showed is evidence for the other's: on two H200s tensor_peak_workgroup's
// runs agreed to 0.01% on one GPU and spread 0.24% on the other, and a ctest A/A check on the first
// came back 0.21% slower (docs/performance.md). Needs two GPUs with two runs each; nullopt otherwise.
std::optional<DeviceSpread> spread_within(const std::map<std::string, std::vector<double>>& medians_by_device);

// Each device's run medians of one metric's `runs`, whose devices `run_devices` names in order
// (BaselineCase::run_devices): device -> medians. Runs with no samples or no device are left out.
std::map<std::string, std::vector<double>> medians_by_device(const std::vector<std::vector<double>>& runs,
                                                             const std::vector<std::string>& run_devices);

// Sets `threshold`'s pooled allowance (noise_factor x spread_within's bound) for `metric` where
// `device_run_medians` (BaselineCase's, from runs_of_device) hold its GPUs' run medians: the
// least a check on any of them is allowed, so a GPU whose own runs agreed by luck is not judged
// finer than its host measured.
void allow_pooled_spread(MetricThreshold& threshold,
                         const std::map<std::string, std::map<std::string, std::vector<double>>>& device_run_medians,
                         const std::string& metric, double noise_factor);

}  // namespace perfgate
