#pragma once
// The "ab" object of a case in the results JSON (an A/B check against a base build), and one
// build's identity, which an A/B server also announces on its first line:
//   "ab": {"base": {binary, perfgate_version, source_hash, fingerprint, latency_ns},
//          "head": {...}, "rounds": N, "median_ratio": r, "interval": [low, high],
//          "p_value": p, "max_regression_pct": pct, "ratios": [per round]}
// An unbounded interval end is written as null.
#include <nlohmann/json.hpp>

#include "perfgate/result.h"

namespace perfgate {

nlohmann::json to_json(const AbBuild& build);
AbBuild ab_build_from_json(const nlohmann::json& json);
nlohmann::json to_json(const AbComparison& ab);
AbComparison ab_from_json(const nlohmann::json& json);

}  // namespace perfgate
