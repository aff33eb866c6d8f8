#pragma once
// `perfgate check CASE --base BUILD` (or PERFGATE_BASE=BUILD): the case measured in the base
// build and in this one at the same moment, and judged on their paired ratios instead of a
// stored baseline. Both builds run `perfgate serve CASE` as children; the driver steps them in
// short rounds, in a random order per round, so only one side runs at a time and whatever the
// machine does meanwhile falls on both alike. A regression is measured again by a fresh pair
// (`confirm` times) and stands only if every pair regresses.
#include <cstdint>
#include <string>

#include "judge/thresholds.h"
#include "measure/case_selection.h"
#include "perfgate/result.h"

namespace perfgate {

struct AbSettings {
  std::string base_binary;  // a perfgate executable (see resolve_base_binary)
  std::string device;       // --device, passed to both sides
  std::uint64_t seed = 0;   // inputs of both sides and the round order; 0 = fresh
};

// `path` is the base build's perfgate executable, or a build folder holding one ("perfgate",
// or any single executable named by `executable_name` there). Throws Error naming the path.
std::string resolve_base_binary(const std::string& path, const std::string& executable_name);

// Never throws for the case's own failures: they become its verdict. A base build without
// the case (or without A/B support) is a skip, with the reason in the message.
CaseResult ab_check(const CaseSpec& spec, const AbSettings& settings, const ThresholdSet& thresholds);

}  // namespace perfgate
