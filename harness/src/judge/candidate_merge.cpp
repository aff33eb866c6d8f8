#include "judge/candidate_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "judge/thresholds.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

// The first fingerprint field on which `a` and `b` differ, as "name: A vs B"; "" when none.
// GPUs of one model, driver and build may differ in device and host: each run keeps its device
// (run_devices), a check on one of them is judged against its own runs and one on another GPU
// with the spread between them (judge/device_spread.h).
std::string fingerprint_difference(const Fingerprint& a, const Fingerprint& b) {
  const bool gpus = !a.device_uuid.empty() && !b.device_uuid.empty();
  const auto text = [](const std::string& s) { return s.empty() ? std::string("(none)") : s; };
  const std::pair<const char*, std::pair<std::string, std::string>> fields[] = {
      {"machine_id", {a.machine_id, b.machine_id}},
      {"backend", {a.backend, b.backend}},
      {"device_name", {a.device_name, b.device_name}},
      {"vendor_id", {std::to_string(a.vendor_id), std::to_string(b.vendor_id)}},
      {"device_id", {std::to_string(a.device_id), std::to_string(b.device_id)}},
      {"driver_version", {a.driver_version, b.driver_version}},
      {"api_version", {a.api_version, b.api_version}},
      {"device_uuid", {a.device_uuid, b.device_uuid}},
      {"host_id", {a.host_id, b.host_id}},
      {"cpu_model", {a.cpu_model, b.cpu_model}},
      {"cpu_threads", {std::to_string(a.cpu_threads), std::to_string(b.cpu_threads)}},
      {"compiler", {a.compiler, b.compiler}},
      {"build_type", {a.build_type, b.build_type}},
      {"build_flags", {a.build_flags, b.build_flags}},
  };
  for (const auto& [name, values] : fields)
    if (values.first != values.second && !(gpus && (name == std::string("device_uuid") || name == std::string("host_id"))))
      return std::string(name) + ": " + text(values.first) + " vs " + text(values.second);
  return "";
}

std::string cache_text(const std::optional<bool>& fits) {
  return fits ? (*fits ? "in cache" : "not in cache") : "unknown";
}

// Each run's device: the candidate's own list, or its fingerprint's device for every run.
std::vector<std::string> devices_of_runs(const Candidate& c) {
  if (!c.run_devices.empty()) return c.run_devices;
  return std::vector<std::string>(c.run_ids.size(), c.fingerprint.device_uuid);
}

}  // namespace

Candidate merge_candidates(const std::vector<NamedCandidate>& parts) {
  if (parts.size() < 2) throw Error("refusing to merge: give two or more candidate files");
  std::map<std::string, std::string> file_of_run;  // run id -> the part that holds it
  for (const NamedCandidate& part : parts)
    for (const std::string& run : part.candidate.run_ids)
      if (const auto [at, fresh] = file_of_run.try_emplace(run, part.file); !fresh)
        throw Error("refusing to merge: run " + run + " is in both " + at->second + " and " + part.file +
                    (at->second == part.file ? " (twice)" : "") +
                    "; a run counted twice narrows the allowance: give each candidate once");
  const NamedCandidate& first = parts.front();
  Candidate merged = first.candidate;
  for (const NamedCandidate& part : parts)
    merged.created_at = std::min(merged.created_at, part.candidate.created_at);
  merged.digest.clear();
  // The share of time each case's threads waited, over every run: each part's weighted by its runs.
  std::vector<double> waited(merged.cases.size());
  std::size_t total_runs = first.candidate.run_ids.size();
  for (std::size_t i = 0; i < merged.cases.size(); ++i)
    waited[i] = merged.cases[i].cpu_wait_share * double(total_runs);
  for (std::size_t p = 1; p < parts.size(); ++p) {
    const NamedCandidate& part = parts[p];
    const std::string pair = first.file + " and " + part.file;
    if (const std::string why =
            fingerprint_difference(first.candidate.fingerprint, part.candidate.fingerprint);
        !why.empty())
      throw Error("refusing to merge " + pair + ": measured on different machines or builds (" + why +
                  "); each is a baseline of its own");
    if (part.candidate.perfgate_version != first.candidate.perfgate_version)
      throw Error("refusing to merge " + pair + ": measured by different perfgate versions (" +
                  first.candidate.perfgate_version + " vs " + part.candidate.perfgate_version +
                  "); the merged candidate would name one of them: propose again with one perfgate");
    if (part.candidate.cases.size() != merged.cases.size())
      throw Error("refusing to merge " + pair + ": they hold " + std::to_string(merged.cases.size()) +
                  " and " + std::to_string(part.candidate.cases.size()) +
                  " cases; propose the same selection each time");
    merged.measured_at = std::min(merged.measured_at, part.candidate.measured_at);
    merged.run_ids.insert(merged.run_ids.end(), part.candidate.run_ids.begin(), part.candidate.run_ids.end());
    if (!merged.run_devices.empty() || !part.candidate.run_devices.empty() ||
        part.candidate.fingerprint.device_uuid != first.candidate.fingerprint.device_uuid) {
      if (merged.run_devices.empty()) merged.run_devices = devices_of_runs(first.candidate);
      const std::vector<std::string> more = devices_of_runs(part.candidate);
      merged.run_devices.insert(merged.run_devices.end(), more.begin(), more.end());
    }
    merged.periods += part.candidate.periods;
    total_runs += part.candidate.run_ids.size();
    for (std::size_t i = 0; i < merged.cases.size(); ++i) {
      CandidateCase& into = merged.cases[i];
      const CandidateCase& from = part.candidate.cases[i];  // both sorted by id
      if (from.id != into.id)
        throw Error("refusing to merge " + pair + ": " + into.id + " is missing from " +
                    (from.id < into.id ? first.file : part.file));
      if (from.source_hash != into.source_hash)
        throw Error("refusing to merge " + pair + ": the source of " + into.id +
                    " changed between them; its runs measured different code");
      if (from.calibration_reference != into.calibration_reference)
        throw Error("refusing to merge " + pair + ": " + into.id +
                    " was calibrated against different references; its relative times do not pool");
      if (from.fits_in_cache != into.fits_in_cache)
        throw Error("refusing to merge " + pair + ": " + into.id + " was " + cache_text(into.fits_in_cache) +
                    " in one and " + cache_text(from.fits_in_cache) + " in the other");
      if (bound_by_memory(into.bound) && !bound_by_memory(from.bound)) into.bound = from.bound;
      if (from.runs.count(metric::latency_ns) == 0)
        throw Error("refusing to merge " + pair + ": " + into.id + " has no latency_ns runs in " + part.file);
      for (const auto& [metric, runs] : from.runs) {
        auto& target = into.runs[metric];
        target.insert(target.end(), runs.begin(), runs.end());
      }
      waited[i] += from.cpu_wait_share * double(part.candidate.run_ids.size());
    }
  }
  for (std::size_t i = 0; i < merged.cases.size(); ++i)
    merged.cases[i].cpu_wait_share =
        std::stod(fmt::format("{:.3g}", waited[i] / double(std::max<std::size_t>(total_runs, 1))));
  return merged;
}

}  // namespace perfgate
