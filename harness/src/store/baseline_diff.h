#pragma once
// What approving a candidate would change: per case and metric, the approved median against the
// candidate's (all runs pooled).
#include <optional>
#include <string>
#include <vector>

#include "store/baseline.h"
#include "store/candidate.h"

namespace perfgate {

struct DiffRow {
  std::string case_id;
  std::string metric;
  std::optional<double> old_median;  // none: no approved baseline for the case yet
  double new_median = 0;
  std::optional<double> change_pct;  // (new - old) / old x 100; none without an old non-zero median
  std::size_t runs = 0;              // separate runs in the candidate
  std::string note;                  // "new", "source changed", "driver changed", ...
};

std::vector<DiffRow> diff_candidate(const BaselineStore& store, const Candidate& candidate);

}  // namespace perfgate
