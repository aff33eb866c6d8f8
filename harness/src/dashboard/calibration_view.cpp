#include "dashboard/calibration_view.h"

#include <cmath>

namespace perfgate {

using nlohmann::json;

json case_calibration_json(const CaseCalibration& calibration) {
  json devices = json::array();
  for (const DeviceCalibration& d : calibration.devices) {
    json e{{"device", d.device},           {"baseline", d.baseline_measured}, {"runs", d.runs},
           {"offset_runs", d.offset_runs}, {"placed", d.offset.has_value()},  {"why", d.why}};
    if (d.offset) {
      // To 0.0001%: finer than any offset is known.
      e["offset_pct"] = std::round(100 * (d.offset->ratio - 1) * 1e4) / 1e4;
      e["bound_pct"] = std::round(d.offset->bound_pct * 1e4) / 1e4;
    }
    devices.push_back(std::move(e));
  }
  return {{"devices_are", calibration.devices_are},
          {"calibrated", calibration.calibrated()},
          {"runs_needed", kOffsetRuns},
          {"devices", std::move(devices)}};
}

void MachineCalibrations::add(const std::string& machine_id, const std::string& case_id,
                              const CaseCalibration& calibration) {
  auto& devices = machines_[{machine_id, calibration.devices_are}];
  for (const DeviceCalibration& d : calibration.devices) {
    Device& e = devices[d.device];
    ++e.cases;
    e.baseline_cases += d.baseline_measured;
    e.placed_cases += d.offset.has_value();
    if (!d.calibrated() && e.not_yet.size() < kShownNotYet)
      e.not_yet.push_back({{"case", case_id}, {"why", d.why}});
  }
}

json MachineCalibrations::summary() const {
  json out = json::array();
  for (const auto& [key, devices] : machines_) {
    json list = json::array();
    int calibrated = 0;
    for (const auto& [device, e] : devices) {
      const int calibrated_cases = e.baseline_cases + e.placed_cases;
      calibrated += calibrated_cases == e.cases;
      list.push_back({{"device", device},
                      {"cases", e.cases},
                      {"calibrated_cases", calibrated_cases},
                      {"baseline_cases", e.baseline_cases},
                      {"placed_cases", e.placed_cases},
                      {"not_yet_cases", e.cases - calibrated_cases},
                      {"not_yet", e.not_yet}});
    }
    out.push_back({{"machine", key.first},
                   {"devices_are", key.second},
                   {"calibrated", calibrated},
                   {"runs_needed", kOffsetRuns},
                   {"devices", std::move(list)}});
  }
  return out;
}

}  // namespace perfgate
