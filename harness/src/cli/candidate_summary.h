#pragma once
// What `baseline propose` and `baseline merge` say about the candidate they wrote, and where
// they refuse to write it.
#include <filesystem>
#include <string>

#include "judge/thresholds.h"
#include "store/candidate.h"

namespace perfgate {

// Whether `file` lies inside `folder` (both resolved): a candidate is never written into
// baselines/, which only `baseline approve` changes.
bool inside_folder(const std::filesystem::path& file, const std::filesystem::path& folder);

// The cases whose runs are multimodal or drift, a line each with the allowance they will be
// judged with, under an "unstable:" heading; "" when none.
std::string unstable_cases(const Candidate& candidate, const ThresholdSet& thresholds);

// The two commands that review and approve the candidate at `file`.
std::string review_hints(const std::string& binary_name, const std::filesystem::path& file);

}  // namespace perfgate
