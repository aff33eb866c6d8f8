#pragma once
// How many devices of each machine id are calibrated, for the dashboard's pages: what the judge
// found of each case (judge/device_calibration.h) as JSON, per case and summed per machine id.
// Nothing is decided here: a device counts as calibrated on a machine where it is in every case
// it ran that has an approved baseline.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "judge/device_calibration.h"

namespace perfgate {

// A case's series: {devices_are: "GPUs"|"hosts", calibrated, runs_needed (kOffsetRuns),
//  devices: [{device, baseline, runs, offset_runs, placed, offset_pct, bound_pct, why}]}.
nlohmann::json case_calibration_json(const CaseCalibration& calibration);

// Every machine id's devices over its cases. summary() gives, per machine id and kind of device:
// {machine, devices_are, calibrated, runs_needed, devices: [{device, cases, calibrated_cases, baseline_cases,
//  placed_cases, not_yet_cases, not_yet: [{case, why}] (the first kShownNotYet)}]}.
class MachineCalibrations {
 public:
  static constexpr int kShownNotYet = 3;

  void add(const std::string& machine_id, const std::string& case_id, const CaseCalibration& calibration);
  nlohmann::json summary() const;

 private:
  struct Device {
    int cases = 0, baseline_cases = 0, placed_cases = 0;
    nlohmann::json not_yet = nlohmann::json::array();
  };
  // (machine id, "GPUs"|"hosts") -> device -> what its cases say.
  std::map<std::pair<std::string, std::string>, std::map<std::string, Device>> machines_;
};

}  // namespace perfgate
