#pragma once
// A history judged: per machine and case, the runs' series of the judged metric (the median
// relative_latency where the case is calibrated, else the median latency_ns) cut into segments
// (stats/change_points.h) under the case's `history` thresholds, each change point located by
// run and commit range, and the newest segment's drift from the best segment and from the
// approved baseline. What `perfgate history --changes/--gate`, the reports and the alerts show.
// A step where the runs moved to another GPU (or, on a CPU, another host) is the instrument's as
// likely as the code's, whether or not the kernel source or driver changed there too: it is
// judged against the spread the history has shown between its devices (three or more), else
// named and not gated, as a check against another device's baseline is (judge/judge_case.h).
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "judge/thresholds.h"
#include "stats/change_points.h"
#include "store/baseline.h"
#include "store/history.h"
#include "store/history_log.h"

namespace perfgate {

struct HistoryChange {
  std::string id;  // "cp-" + 12 hex digits of machine, case, metric and commit range: stable
  ChangePoint step;
  int run_index = 0;  // of the first run after the step, 0-based in the case's series
  // The range to bisect: the last run before the step and the first after (commit, else run id).
  std::string commit_before, commit_after;
  std::string run_before, run_after;
  std::string started_after;  // when the first run after the step started
  std::string boundary;       // "kernel source", "driver", "kernel source and driver" or ""
  bool regression = false;    // worse by the metric's direction
  std::string moved;          // "device" or "host": the runs either side were measured on other ones
  // Why a regression is not gated (a step across devices within their spread, or one the history
  // cannot yet weigh): empty when it is judged as any step is.
  std::string not_gated;
  std::optional<Acknowledgement> acknowledged;
  std::optional<Bisected> bisected;  // where `perfgate bisect --change-point` found the step
};

// A change point's fields as JSON, one record for `history --changes --json` and the webhook alert.
nlohmann::json change_json(const HistoryChange& change);

struct CaseHistory {
  std::string machine_id;
  std::string case_id;
  std::string metric;                // the series judged
  std::vector<HistoryPoint> points;  // the runs that have the metric, oldest first
  std::vector<double> values;        // the metric per point
  ChangePointSettings settings;
  Segmentation segmentation;
  std::vector<HistoryChange> changes;
  Drift drift;                 // against the best segment since the last acknowledged regression
  double baseline_median = 0;  // of the approved baseline's per-run medians; 0 = none
  std::string drift_id;        // "drift-" + 12 hex digits of machine, case and newest segment start
  std::optional<Acknowledgement> drift_acknowledged;
  std::string drift_not_gated;  // the newest and best segments measured on other devices: why

  // A gated regression change point nobody acknowledged: what the gate fails on and alerts about.
  std::vector<const HistoryChange*> open_regressions() const;
  bool drift_fails() const { return drift.exceeded && drift_not_gated.empty() && !drift_acknowledged; }
};

// Every (machine, case) of `points`, ordered by case then machine. `baselines` may be null (no
// drift against a baseline). Throws Error for a thresholds problem.
std::vector<CaseHistory> analyse_history(const std::vector<HistoryPoint>& points,
                                         const ThresholdSet& thresholds, const BaselineStore* baselines,
                                         const std::map<std::string, Acknowledgement>& acknowledgements);

// Sets each change point's `bisected` from the records of BISECTED.log (store/history_log.h).
void attach_bisections(std::vector<CaseHistory>& histories, const std::map<std::string, Bisected>& bisected);

}  // namespace perfgate
