#pragma once
// What a finished (or stopped) `perfgate bisect` found, for its table, its --json file, the
// history's BISECTED.log and the webhook alert: the search's end and culprits, every step, the
// builds and time spent, and how the culprits' change compares with the change point's own.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "judge/bisection.h"
#include "store/history_log.h"

namespace perfgate {

// The step a history found (bisect --change-point), to check the culprits' change against.
struct ExpectedStep {
  std::string change_id;
  std::string machine_id;
  double change_pct = 0, low_pct = 0, high_pct = 0;
};

struct BisectOutcome {
  std::vector<std::string> case_ids;
  std::string machine_id;  // where the steps were measured
  std::string source;      // the repository's top folder
  BisectEnd end = BisectEnd::running;
  std::vector<BisectCommit> commits;  // good end first
  std::vector<Culprit> culprits;
  std::optional<BisectStep> total;
  bool rest_undecided = false;
  std::pair<std::size_t, std::size_t> range;  // where a stopped search stands
  std::vector<BisectStep> steps;              // in order, resumed ones included
  std::optional<ExpectedStep> expected;
  int builds = 0;
  int failed_builds = 0;
  double wall_s = 0, build_s = 0, measure_s = 0;  // wall_s: this run and, resumed, the steps replayed
};

BisectOutcome bisect_outcome(const Bisection& bisection);

// A ratio as a signed percentage change: 1.312 -> 31.2.
inline double change_pct(double ratio) { return (ratio - 1) * 100; }

// "consistent", or why the culprits' change (together) and the history's step disagree: the
// culprits' combined interval against the change point's interval.
std::string magnitude_check(const BisectOutcome& outcome);

// The outcome as JSON: first_bad (full sha, null where none), culprits, steps, total, builds.
nlohmann::json bisect_json(const BisectOutcome& outcome);

// The culprits as the history records them beside the change point.
Bisected bisected_record(const BisectOutcome& outcome, const std::string& at);

}  // namespace perfgate
