// What `perfgate baseline merge A.yaml B.yaml` reads and pools: two candidates (the input split at
// a line "#8<", else one candidate given twice), merged, each merged case's allowance computed as
// merge states it, and the merged candidate written and read back. The digest is not checked, so
// the fuzzer reaches the merge.
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "judge/verdict.h"
#include "perfgate/metric_names.h"
#include "store/candidate.h"
#include "store/candidate_merge.h"

namespace {

void merge_fuzz_input(const std::string& text) {
  const std::size_t cut = text.find("\n#8<\n");
  const std::string first = cut == std::string::npos ? text : text.substr(0, cut + 1);
  const std::string second = cut == std::string::npos ? text : text.substr(cut + 5);
  std::vector<perfgate::NamedCandidate> parts{{"a.yaml", perfgate::parse_candidate(first, "a.yaml")},
                                              {"b.yaml", perfgate::parse_candidate(second, "b.yaml")}};
  const perfgate::Candidate merged = perfgate::merge_candidates(parts);
  perfgate::Thresholds thresholds;
  thresholds.metrics[perfgate::metric::latency_ns].min_allowed_pct = 1;
  for (const perfgate::CandidateCase& c : merged.cases)
    (void)perfgate::latency_noise(c.runs, thresholds,
                                  {c.fits_in_cache.value_or(true), perfgate::bound_by_memory(c.bound)});
  (void)perfgate::parse_candidate(perfgate::to_yaml(merged), "merged.yaml");
}

}  // namespace

PERFGATE_FUZZ_TARGET(merge_fuzz_input)
