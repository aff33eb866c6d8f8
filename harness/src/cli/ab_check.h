#pragma once
// `perfgate check CASE --base BUILD` (or PERFGATE_BASE=BUILD): the two sides of an A/B check,
// the base build and this one, each a `perfgate serve CASE` child spoken to line by line. The
// gate steps them, judges and confirms (gate/paired_measurement.h).
#include <cstdint>
#include <memory>
#include <string>

#include "gate/paired_measurement.h"
#include "measure/case_selection.h"

namespace perfgate {

struct AbSettings {
  std::string base_binary;  // a perfgate executable (see resolve_base_binary)
  std::string device;       // --device, passed to both sides
  std::string head_binary;  // "" = this executable (`bisect` measures two other builds)
};

// `path` is the base build's perfgate executable, or a build folder holding one ("perfgate",
// or any single executable named by `executable_name` there). Throws Error naming the path.
std::string resolve_base_binary(const std::string& path, const std::string& executable_name);

// Starts both builds' serve children for the case (inputs from `seed`) and waits until both are
// ready on the same case and the same device. Throws PairFailure: a base build without the case
// (or without A/B support) is a skip, with the reason in the message; anything else an error.
std::unique_ptr<AbPair> start_serve_pair(const CaseSpec& spec, const AbSettings& settings,
                                         std::uint64_t seed);

}  // namespace perfgate
