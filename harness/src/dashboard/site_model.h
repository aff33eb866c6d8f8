#pragma once
// The dashboard's data: what the site's pages draw, built from a judged history
// (judge/history_analysis.h) and the logs beside it, as JSON documents:
//   index   every run (id, commit, start, branches, machines), every case with each machine's
//           series summarised (state, devices, a small trend), the front page's items
//           (dashboard/attention.h) and how many devices of each machine id are calibrated
//           (dashboard/calibration_view.h): what every page loads;
//   a case  each machine's series in full: the runs' medians and spreads with their device, the
//           judge's segments and change points, the newest segment's drift, the approved
//           baseline's level and the drift it allows, who approved it, and which devices it
//           judges at their own level and what places the others (judge/device_calibration.h);
//   a run   its cases' verdicts, medians and what placed them (the baseline, the step it starts).
// Keyed by a digest of the case id or run id: file names any id can make and no id can break.
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "judge/history_analysis.h"
#include "store/approval_log.h"
#include "store/baseline_case.h"

namespace perfgate {

struct SiteInputs {
  const std::vector<CaseHistory>* histories = nullptr;  // bisections attached
  std::set<std::string> alerted;                        // ALERTED.log
  // (machine id, case id) -> the approval that put its baseline in place (APPROVALS.log).
  std::map<std::pair<std::string, std::string>, ApprovalLogEntry> approvals;
  // (machine id, case id) -> its approved baseline: which devices it calibrates (read_baselines).
  std::map<std::pair<std::string, std::string>, BaselineCase> baselines;
};

// Where each case's and run's document goes as soon as it is whole (kind "case" or "run", its
// key, the document), so a million history lines never sit in memory as JSON at once.
using SiteDocumentSink =
    std::function<void(const std::string& kind, const std::string& key, const nlohmann::json&)>;

// Hands every case's and run's document to `sink` and returns the index.
nlohmann::json build_site_data(const SiteInputs& inputs, const SiteDocumentSink& sink);

// The file key of a case or run id: 16 hex digits of its SHA-256.
std::string site_key(const std::string& id);

// The newest approval of each case in each machine's APPROVALS.log under `baselines_dir` (a drop
// removes it); a malformed line throws Error naming the file and line, as every reader of it does.
std::map<std::pair<std::string, std::string>, ApprovalLogEntry> read_approvals(
    const std::string& baselines_dir);

// Every approved case under `baselines_dir` by (machine id, case id); none where there is no such
// folder. A file that cannot be parsed throws Error naming it, as every reader of it does.
std::map<std::pair<std::string, std::string>, BaselineCase> read_baselines(const std::string& baselines_dir);

}  // namespace perfgate
