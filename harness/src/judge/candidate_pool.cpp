#include "judge/candidate_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "judge/thresholds.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// Six significant digits: far finer than any timer's run-to-run noise, and a baseline file a
// third the size of one with every digit of a double, which matters in a reviewed diff.
std::vector<double> significant_digits(const std::vector<double>& samples) {
  std::vector<double> rounded;
  rounded.reserve(samples.size());
  for (double v : samples) rounded.push_back(std::stod(fmt::format("{:.6g}", v)));
  return rounded;
}

// A calibration reference's case id, or what an uncalibrated run had.
std::string or_none(const std::string& reference) { return reference.empty() ? "nothing" : reference; }

}  // namespace
namespace {

// Cases a run could not measure at all stop the proposal, with every reason at once. A case the
// device cannot run (skipped: a feature it lacks, a shader this build left out) is not one of
// them: it is left out of the candidate (skipped_cases).
void refuse_unmeasured(const RunResult& run, std::size_t index) {
  std::string problems;
  for (const auto& c : run.cases) {
    if (c.verdict == Verdict::error)
      problems += "\n  " + c.id + ": error: " + (c.message.empty() ? c.check : c.message);
    else if (c.verdict == Verdict::skipped)
      continue;
    else if (c.metrics.empty())
      problems += "\n  " + c.id + ": no samples";
  }
  if (!problems.empty())
    throw Error("refusing to propose: run " + std::to_string(index + 1) +
                " has cases that were not measured correctly (nothing written):" + problems);
}

}  // namespace

std::string skipped_cases(const RunResult& run) {
  std::string out;
  for (const auto& c : run.cases)
    if (c.verdict == Verdict::skipped) out += "\n  " + c.id + ": " + c.message;
  return out;
}

Candidate candidate_from_runs(const std::vector<RunResult>& runs, const std::string& created_at) {
  if (runs.empty()) throw Error("refusing to propose: no runs");
  const RunResult& first = runs.front();
  if (first.cases.empty()) throw Error("refusing to propose: the selection has no cases");
  Candidate candidate;
  candidate.created_at = created_at;
  candidate.measured_at = first.started_at;
  candidate.fingerprint = first.fingerprint;
  candidate.commit = first.commit;
  candidate.branch = first.branch;
  candidate.perfgate_version = first.perfgate_version;
  std::map<std::string, CandidateCase> cases;
  std::map<std::string, std::vector<double>> waits;  // per case, per run
  std::set<std::string> skipped;                     // in run 1, so in every run
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunResult& run = runs[i];
    refuse_unmeasured(run, i);
    if (run.fingerprint.machine_id.empty())
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " carries no machine id");
    if (run.fingerprint.machine_id != candidate.fingerprint.machine_id)
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " measured on " +
                  run.fingerprint.machine_id + ", run 1 on " + candidate.fingerprint.machine_id);
    if (run.cases.size() != first.cases.size())
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " measured " +
                  std::to_string(run.cases.size()) + " cases, run 1 " + std::to_string(first.cases.size()));
    if (run.fingerprint.host_id != candidate.fingerprint.host_id)
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " measured on another host than run 1");
    candidate.run_ids.push_back(run.run_id);
    candidate.run_devices.push_back(run.fingerprint.device_uuid);
    for (const auto& result : run.cases) {
      const bool skipped_first = skipped.contains(result.id);
      if (result.verdict == Verdict::skipped || skipped_first) {
        if (i == 0) {
          skipped.insert(result.id);
        } else if (!skipped_first || result.verdict != Verdict::skipped) {
          throw Error("refusing to propose: " + result.id + " was " + (skipped_first ? "skipped" : "measured") +
                      " in run 1 and " + (skipped_first ? "measured" : "skipped") + " in run " +
                      std::to_string(i + 1) + (result.message.empty() ? "" : ": " + result.message));
        }
        continue;
      }
      CandidateCase& c = cases[result.id];
      if (i == 0) {
        c.id = result.id;
        c.kernel = result.kernel;
        c.backend = result.backend;
        c.source_hash = result.source_hash;
        c.fits_in_cache = result.fits_in_cache;
        c.bound = result.bound;
        c.calibration_reference = result.calibration_reference;
      } else if (c.id.empty()) {
        throw Error("refusing to propose: case " + result.id + " is in run " + std::to_string(i + 1) +
                    " but not in run 1");
      } else if (c.source_hash != result.source_hash) {
        throw Error("refusing to propose: the source of " + result.id + " changed between runs");
      } else if (c.calibration_reference != result.calibration_reference) {
        throw Error("refusing to propose: " + result.id + " was calibrated against " +
                    or_none(c.calibration_reference) + " in run 1 and " + or_none(result.calibration_reference) +
                    " in run " + std::to_string(i + 1) + "; its relative times do not pool");
      }
      // One run bound by compute or latency is enough for the wider floor (BaselineCase::bound).
      if (bound_by_memory(c.bound) && !bound_by_memory(result.bound)) c.bound = result.bound;
      waits[result.id].push_back(result.cpu_wait_share);
      for (const auto& [metric, values] : result.metrics) {
        if (values.samples.empty())
          throw Error("refusing to propose: " + result.id + " has no " + metric + " samples in run " +
                      std::to_string(i + 1));
        if (!std::all_of(values.samples.begin(), values.samples.end(),
                         [](double v) { return std::isfinite(v); }))
          throw Error("refusing to propose: " + result.id + " has a " + metric +
                      " sample that is not a finite number in run " + std::to_string(i + 1));
        c.runs[metric].push_back(significant_digits(values.samples));
      }
    }
  }
  // A metric a run may leave out (cold latency, when its time budget ran out) keeps the runs
  // that have it; a case needs its latency from every run.
  for (auto& [id, c] : cases) {
    auto latency = c.runs.find(metric::latency_ns);
    if (latency == c.runs.end() || latency->second.size() != runs.size())
      throw Error("refusing to propose: " + id + " lacks latency_ns samples in some runs");
    c.cpu_wait_share = std::stod(fmt::format("{:.3g}", median(waits[id])));  // a share: 3 digits say it
    candidate.cases.push_back(std::move(c));
  }
  if (candidate.cases.empty())
    throw Error("refusing to propose: this device can run none of the selected cases:" + skipped_cases(first));
  // Devices are named per run only where the runs span several (BaselineCase::run_devices).
  if (std::all_of(candidate.run_devices.begin(), candidate.run_devices.end(),
                  [&](const std::string& uuid) { return uuid == candidate.fingerprint.device_uuid; }))
    candidate.run_devices.clear();
  return candidate;
}

}  // namespace perfgate
