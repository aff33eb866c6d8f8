#pragma once
// What `baseline propose` and `baseline merge` say about the candidate they wrote.
#include <filesystem>
#include <string>

#include "judge/thresholds.h"
#include "store/baseline_case.h"
#include "store/candidate.h"

namespace perfgate {

// The cases whose runs are multimodal or drift, a line each with the allowance they will be
// judged with, under an "unstable:" heading; "" when none.
std::string unstable_cases(const Candidate& candidate, const ThresholdSet& thresholds);

// Every case with the allowance its runs give it once approved (its resolution: the smallest
// regression a check catches, and what set it: noise, min_change, a floor), under a heading, so a
// proposal measured while the machine was slowed (a case read as latency-bound gets its 50% floor)
// is seen before the candidate is written.
std::string case_allowances(const Candidate& candidate, const ThresholdSet& thresholds);

// A case's resolution as `baseline show` and a proposal state it: "0.09% noise", one figure per
// GPU ("0.80% noise / 1.34% noise") where its runs span several (each GPU is judged against its
// own, runs_of_device); "" where it has no latency_ns runs.
std::string resolution_per_device(const BaselineCase& baseline, const Thresholds& thresholds);

// Where the proposing command was pointed, for the commands it prints to run as printed.
struct HintPlace {
  std::string program;        // argv[0] as typed: "build/my_perfgate"
  std::string baselines_dir;  // --baselines where not the default, else empty
  std::string device;         // --device where given: approve asks that device for the machine id
};

// The two commands that review and approve the candidate at `file`, against the baselines
// folder the proposing command diffed it with.
std::string review_hints(const HintPlace& place, const std::filesystem::path& file);

}  // namespace perfgate
