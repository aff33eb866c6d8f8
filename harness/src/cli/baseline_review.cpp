// perfgate baseline show / diff: what is approved, and what a candidate would change, for a
// terminal or (--markdown) for a pull request.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli/baseline_subcommands.h"
#include "cli/candidate_summary.h"
#include "judge/device_calibration.h"
#include "judge/thresholds.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"
#include "store/candidate.h"
#include "store/history.h"

namespace perfgate {

int show_main(const ReviewFlags& flags) {
  const BaselineStore store(flags.baselines_dir);
  std::vector<BaselineCase> cases;
  for (auto& c : store.all(flags.machine_id))
    if (flags.target.empty() || case_matches(flags.target, c)) cases.push_back(std::move(c));
  // Each case's resolution under today's thresholds: what a check against it can catch.
  const ThresholdSet thresholds = ThresholdSet::load(flags.thresholds_dir);
  std::vector<std::string> catches;
  // With a history: how many devices of the machine id its gated runs have placed. A folder that
  // is not there is a mistake, not an empty history.
  if (!flags.history_dir.empty() && !std::filesystem::is_directory(flags.history_dir))
    throw Error("--history: '" + flags.history_dir + "' is not a folder of history files");
  std::map<std::string, std::map<std::string, std::vector<HistoryPoint>>> history;  // machine -> case -> runs
  for (const auto& c : cases) {
    std::string text = resolution_per_device(c, thresholds.resolve(c.id, c.fingerprint.machine_id));
    if (!flags.history_dir.empty()) {
      const std::string& machine = c.fingerprint.machine_id;
      if (!history.contains(machine)) history[machine] = history_by_case(read_all_history(flags.history_dir, machine));
      // Counted as the dashboard counts them (judge/device_calibration.h), on latency: the
      // metric every case keeps.
      const CaseCalibration calibration = case_calibration(history[machine][c.id], c, metric::latency_ns);
      const auto other = std::count_if(calibration.devices.begin(), calibration.devices.end(),
                                       [](const DeviceCalibration& d) { return !d.baseline_measured; });
      const auto placed = std::count_if(calibration.devices.begin(), calibration.devices.end(),
                                        [](const DeviceCalibration& d) { return !d.baseline_measured && d.offset; });
      text += fmt::format("{}{} of {} other {} in the history placed", text.empty() ? "" : "; ", placed, other,
                          calibration.devices_are);
    }
    catches.push_back(std::move(text));
  }
  std::fputs(render_baselines(cases, catches, flags.markdown).c_str(), stdout);
  return 0;
}

int diff_main(const ReviewFlags& flags) {
  const Candidate candidate = read_candidate(flags.target);
  const bool digest_ok = content_digest(candidate) == candidate.digest;
  const BaselineStore store(flags.baselines_dir);
  std::fputs(
      render_candidate_diff(candidate, diff_candidate(store, candidate), digest_ok, flags.markdown).c_str(),
      stdout);
  if (!digest_ok) verify_digest(candidate, flags.target);  // throws: exit 2
  return 0;
}

}  // namespace perfgate
