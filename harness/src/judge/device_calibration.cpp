#include "judge/device_calibration.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "judge/history_noise.h"
#include "judge/thresholds.h"

namespace perfgate {
namespace {

// Why runs of a device did not count (offset_runs' conditions, in its order), for the reader:
// "5 are at another kernel source, 1 before the baseline's".
std::string not_counted(const std::vector<HistoryPoint>& its, const BaselineCase& baseline,
                        const std::string& driver) {
  int source = 0, other_driver = 0, before = 0;
  for (const HistoryPoint& p : its) {
    if (p.source_hash != baseline.source_hash)
      ++source;
    else if (p.driver != driver)
      ++other_driver;
    else if (!baseline.measured_at.empty() && p.started_at < baseline.measured_at)
      ++before;
  }
  std::vector<std::string> parts;
  if (source) parts.push_back(fmt::format("{} at another kernel source", source));
  if (other_driver) parts.push_back(fmt::format("{} under another driver", other_driver));
  if (before) parts.push_back(fmt::format("{} before the baseline's runs", before));
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

}  // namespace

int CaseCalibration::calibrated() const {
  return static_cast<int>(std::count_if(devices.begin(), devices.end(),
                                        [](const DeviceCalibration& d) { return d.calibrated(); }));
}

CaseCalibration case_calibration(const std::vector<HistoryPoint>& runs, const BaselineCase& baseline,
                                 const std::string& metric) {
  // Whose level differs, as a check tells it (judge/judge_case.cpp, `elsewhere`): a GPU by its
  // uuid, but where the host's cores keep the time, the host, whatever uuid the driver reports.
  const bool host_clocked =
      !baseline.backend.empty() && !kept_by_gpu_clock(baseline.backend, baseline.calibration_reference);
  const bool gpus = !host_clocked && !baseline.fingerprint.device_uuid.empty();
  // The baseline's own: its fingerprint's, and on a GPU each whose runs it holds (run_devices: a
  // check there is judged against that GPU's own runs).
  std::vector<std::string> own{gpus ? baseline.fingerprint.device_uuid : baseline.fingerprint.host_id};
  if (gpus)
    for (const std::string& d : baseline.run_devices)
      if (std::find(own.begin(), own.end(), d) == own.end()) own.push_back(d);
  std::erase(own, "");

  std::map<std::string, std::vector<HistoryPoint>> by_device;
  for (const HistoryPoint& p : runs)
    if (const std::string& device = gpus ? p.device_uuid : p.host_id; !device.empty())
      by_device[device].push_back(p);
  for (auto& [device, its] : by_device)
    std::stable_sort(its.begin(), its.end(), [](const HistoryPoint& a, const HistoryPoint& b) {
      return a.started_at < b.started_at;
    });

  CaseCalibration out;
  out.devices_are = gpus ? "GPUs" : "hosts";
  const std::string self = gpus ? "this GPU" : "this host";
  for (const std::string& device : own) {
    DeviceCalibration d;
    d.device = device;
    d.baseline_measured = true;
    if (auto its = by_device.find(device); its != by_device.end()) {
      d.runs = static_cast<int>(its->second.size());
      d.driver = its->second.back().driver;
    }
    d.why = "the baseline's runs measured " + self;
    // One period of a host whose cores keep the time: its level is the baseline's, how far it moves
    // between periods is not measured yet.
    if (host_clocked && periods_unmeasured(baseline, d.runs))
      d.why += fmt::format(
          ", in one period: {} more of its gated runs in the history (or a baseline merged "
          "with another period's) measure how far its periods move",
          kHistoryNoiseRuns - d.runs);
    out.devices.push_back(std::move(d));
  }
  for (const auto& [device, its] : by_device) {
    if (std::find(own.begin(), own.end(), device) != own.end()) continue;
    DeviceCalibration d;
    d.device = device;
    d.runs = static_cast<int>(its.size());
    // The driver it runs under now: an update starts its offset again (device_level.h).
    d.driver = its.back().driver;
    const std::vector<const HistoryPoint*> counted = offset_runs(its, baseline, d.driver);
    d.offset_runs = static_cast<int>(counted.size());
    d.offset = device_offset(counted, baseline, metric, self);
    if (d.offset) {
      d.why = d.offset->why;
    } else if (baseline.source_hash.empty()) {
      d.why = fmt::format(
          "its baseline names no kernel source, so no run places {}: a baseline approved anew does", self);
    } else if (d.offset_runs >= kOffsetRuns) {
      d.why = fmt::format("the baseline holds no runs of {} to place {} against", metric, self);
    } else {
      const int missing = kOffsetRuns - d.offset_runs;
      d.why = fmt::format("{} more run{} of {} at the baseline's kernel source{} place{} it", missing,
                          missing == 1 ? "" : "s", self, d.driver.empty() ? "" : " and driver " + d.driver,
                          missing == 1 ? "s" : "");
      if (const std::string others = not_counted(its, baseline, d.driver); !others.empty())
        d.why += fmt::format(" ({} of its {} run{} count; {})", d.offset_runs, d.runs, d.runs == 1 ? "" : "s",
                             others);
    }
    out.devices.push_back(std::move(d));
  }
  return out;
}

}  // namespace perfgate
