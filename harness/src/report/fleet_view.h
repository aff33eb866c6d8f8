#pragma once
// Results of several machines side by side, for the combined report and alert: one column per
// machine id, one row per case id, and in each cell the case as that machine judged it.
#include <string>
#include <utility>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct FleetView {
  // One run per machine id, in machine id order. Runs of one machine id (two runners with the
  // same GPU model, or a run split over files) are merged: a later file's case replaces an
  // earlier one's.
  std::vector<RunResult> machines;
  // Every case of any machine: worst verdict on any machine first, then by id.
  std::vector<std::string> case_ids;

  // The case as `machine` measured it, or null when that machine did not run it.
  const CaseResult* cell(std::size_t machine, const std::string& case_id) const;
};

FleetView make_fleet_view(std::vector<RunResult> runs);

// Cases per verdict over every machine, worst first (verdicts present only).
std::vector<std::pair<Verdict, int>> fleet_counts(const FleetView& view);

// A cell's text: "pass +1.2%", "regressed +8.4% (bandwidth_gbps)", "no-baseline"; "" for none.
std::string cell_text(const CaseResult* result);

}  // namespace perfgate
