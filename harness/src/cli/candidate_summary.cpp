#include "cli/candidate_summary.h"

#include "core/resolution.h"
#include "judge/verdict.h"

namespace perfgate {

namespace fs = std::filesystem;

// Said when the candidate is written, so the reviewer knows which cases will be judged with a
// wider allowance, and why.
std::string unstable_cases(const Candidate& candidate, const ThresholdSet& thresholds) {
  std::string out;
  int count = 0;
  for (const CandidateCase& c : candidate.cases) {
    const auto noise = latency_noise(c.runs, thresholds.resolve(c.id, candidate.machine_id()),
                                     {c.fits_in_cache.value_or(true), bound_by_memory(c.bound)});
    if (!noise || !noise->noise.unstable) continue;
    out += "  " + c.id + ": " + noise->noise.why +
           " (catches >= " + resolution_text(noise->allowance.pct, noise->allowance.source) + ")\n";
    ++count;
  }
  if (count == 0) return "";
  return "unstable: " + std::to_string(count) + " case" + (count > 1 ? "s" : "") +
         " whose runs are multimodal or drift; each is judged with a wider, stated allowance:\n" + out;
}

std::string case_allowances(const Candidate& candidate, const ThresholdSet& thresholds) {
  std::string out;
  for (const CandidateCase& c : candidate.cases) {
    const auto noise = latency_noise(c.runs, thresholds.resolve(c.id, candidate.machine_id()),
                                     {c.fits_in_cache.value_or(true), bound_by_memory(c.bound)});
    out += "  " + c.id + ": " +
           (noise ? "catches >= " + resolution_text(noise->allowance.pct, noise->allowance.source)
                  : std::string("no latency_ns runs: not judged on latency")) +
           (c.bound.empty() ? "" : ", bound " + c.bound) + "\n";
  }
  return "allowances once approved (each case's resolution):\n" + out;
}

std::string review_hints(const std::string& binary_name, const fs::path& file) {
  return "review:  " + binary_name + " baseline diff " + file.string() + " --markdown\n" +
         "approve: " + binary_name + " baseline approve " + file.string() + " --by NAME --reason TEXT\n";
}

}  // namespace perfgate
