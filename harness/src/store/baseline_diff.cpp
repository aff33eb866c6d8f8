#include "store/baseline_diff.h"

#include "stats/metric_samples.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

std::string context_note(const std::optional<BaselineCase>& old, const Candidate& candidate,
                         const CandidateCase& c) {
  if (!old) return "new";
  std::string note;
  auto add = [&note](const char* what) { note += (note.empty() ? "" : ", ") + std::string(what); };
  if (old->source_hash != c.source_hash) add("source changed");
  if (old->fingerprint.driver_version != candidate.fingerprint.driver_version) add("driver changed");
  if (old->fingerprint.compiler != candidate.fingerprint.compiler) add("compiler changed");
  return note;
}

}  // namespace

std::vector<DiffRow> diff_candidate(const BaselineStore& store, const Candidate& candidate) {
  std::vector<DiffRow> rows;
  for (const auto& c : candidate.cases) {
    const std::optional<BaselineCase> old = store.find(candidate.machine_id(), c.kernel, c.id);
    const std::string note = context_note(old, candidate, c);
    for (const auto& [metric, runs] : c.runs) {
      DiffRow row;
      row.case_id = c.id;
      row.metric = metric;
      row.new_median = median(pooled(runs));
      row.runs = runs.size();
      row.note = note;
      if (old) {
        if (auto it = old->runs.find(metric); it != old->runs.end()) {
          row.old_median = median(pooled(it->second));
          if (*row.old_median != 0)
            row.change_pct = (row.new_median - *row.old_median) / *row.old_median * 100;
        }
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace perfgate
