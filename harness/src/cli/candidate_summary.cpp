#include "cli/candidate_summary.h"

#include <algorithm>

#include "core/resolution.h"
#include "judge/history_noise.h"
#include "judge/judge_case.h"
#include "judge/verdict.h"
#include "report/next_steps.h"

namespace perfgate {

namespace fs = std::filesystem;

// Said when the candidate is written, so the reviewer knows which cases will be judged with a
// wider allowance, and why.
std::string unstable_cases(const Candidate& candidate, const ThresholdSet& thresholds) {
  std::string out;
  int count = 0;
  for (const CandidateCase& c : candidate.cases) {
    const auto noise = latency_noise(c.runs, thresholds.resolve(c.id, candidate.machine_id()),
                                     {c.fits_in_cache.value_or(true), bound_by_memory(c.bound),
                                      kept_by_gpu_clock(c.backend, c.calibration_reference)});
    if (!noise || !noise->noise.unstable) continue;
    out += "  " + c.id + ": " + noise->noise.why +
           " (catches >= " + resolution_text(noise->allowance.pct, noise->allowance.source) + ")\n";
    ++count;
  }
  if (count == 0) return "";
  return "unstable: " + std::to_string(count) + " case" + (count > 1 ? "s" : "") +
         " whose runs are multimodal or drift; each is judged with a wider, stated allowance:\n" + out;
}

std::string resolution_per_device(const BaselineCase& baseline, const Thresholds& thresholds) {
  std::vector<std::string> devices;
  for (const auto& uuid : baseline.run_devices)
    if (std::find(devices.begin(), devices.end(), uuid) == devices.end()) devices.push_back(uuid);
  if (devices.empty()) devices.push_back(baseline.fingerprint.device_uuid);
  std::string figures;
  for (const auto& uuid : devices) {
    const BaselineCase own = runs_of_device(baseline, uuid);
    const auto noise = latency_noise(own.runs, thresholds,
                                     {baseline.fits_in_cache.value_or(true), bound_by_memory(baseline.bound),
                                      kept_by_gpu_clock(baseline.backend, baseline.calibration_reference)},
                                     own.device_run_medians);
    if (!noise) return "";
    figures += (figures.empty() ? "" : " / ") + resolution_text(noise->allowance.pct, noise->allowance.source);
  }
  return devices.size() > 1 ? figures + " (per GPU)" : figures;
}

std::string case_allowances(const Candidate& candidate, const ThresholdSet& thresholds) {
  std::string out;
  for (const CandidateCase& c : candidate.cases) {
    BaselineCase pooled;
    pooled.runs = c.runs;
    pooled.run_devices = candidate.run_devices;
    pooled.fingerprint = candidate.fingerprint;
    pooled.fits_in_cache = c.fits_in_cache;
    pooled.bound = c.bound;
    pooled.backend = c.backend;
    pooled.calibration_reference = c.calibration_reference;
    const std::string figures = resolution_per_device(pooled, thresholds.resolve(c.id, candidate.machine_id()));
    out += "  " + c.id + ": " +
           (figures.empty() ? std::string("no latency_ns runs: not judged on latency") : "catches >= " + figures) +
           (c.bound.empty() ? "" : ", bound " + c.bound) + "\n";
  }
  // Where the host's cores keep the time, one proposal is one period: say what judges past it.
  std::size_t host_timed = 0;
  for (const CandidateCase& c : candidate.cases)
    host_timed += kept_by_gpu_clock(c.backend, c.calibration_reference) ? 0 : 1;
  std::string periods;
  if (host_timed > 0 && candidate.periods < 2)
    periods = "one period: " + std::to_string(host_timed) + " of these cases are timed by this host's cores, whose "
              "level moves between periods (a neighbour's load, a reboot, hours) beyond what one proposal's runs "
              "show; a check past a case's resolution is named, not failed, until this host's history holds " +
              std::to_string(kHistoryNoiseRuns) + " gated runs (--history) or `baseline merge` pools a proposal "
              "of another period\n";
  else if (candidate.periods > 1)
    periods = std::to_string(candidate.periods) + " periods pooled: their runs' spread spans the moves between them\n";
  return "allowances once approved (each case's resolution):\n" + out + periods;
}

std::string review_hints(const HintPlace& place, const fs::path& file) {
  std::string baselines;
  if (!place.baselines_dir.empty()) baselines = " --baselines " + shell_word(place.baselines_dir);
  const std::string device = place.device.empty() ? "" : " --device " + shell_word(place.device);
  const std::string program = shell_word(place.program);
  return "review:  " + program + " baseline diff " + shell_word(file.string()) + baselines + " --markdown\n" +
         "approve: " + program + " baseline approve " + shell_word(file.string()) + baselines + device +
         " --by NAME --reason TEXT\n";
}

}  // namespace perfgate
