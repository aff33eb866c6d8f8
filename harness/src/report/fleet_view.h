#pragma once
// Results of several machines side by side, for the combined report and alert: one column per
// machine id, one row per case id, and in each cell the case as that machine judged it.
#include <string>
#include <utility>
#include <vector>

#include "core/device_runs.h"
#include "perfgate/result.h"

namespace perfgate {

struct FleetView {
  // One run per device (`runs_per_device`, core/device_runs.h), in machine id order: two
  // runners with the same GPU model are two columns, a run split over files one.
  std::vector<RunResult> machines;
  // Each column's heading: the machine id, and what tells apart the devices that share one.
  std::vector<std::string> labels;
  // Every case of any machine: worst verdict on any machine first, then by id.
  std::vector<std::string> case_ids;

  // The case as `machine` measured it, or null when that machine did not run it.
  const CaseResult* cell(std::size_t machine, const std::string& case_id) const;
};

FleetView make_fleet_view(std::vector<DeviceRun> devices);

// Cases per verdict over every machine, worst first (verdicts present only).
std::vector<std::pair<Verdict, int>> fleet_counts(const FleetView& view);

// A cell's text: "pass +1.2%", "regressed +8.4% (bandwidth_gbps)", "no-baseline"; "" for none.
std::string cell_text(const CaseResult* result);

}  // namespace perfgate
