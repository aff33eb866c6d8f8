// perfgate baseline merge: pools candidates proposed at different times on this machine into
// one, so that the baseline's noise spans the machine's periods. Nothing under baselines/ is
// written; the merged candidate is reviewed and approved like a proposed one.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli/candidate_summary.h"
#include "cli/commands.h"
#include "core/atomic_file.h"
#include "core/path_within.h"
#include "judge/busy_runs.h"
#include "judge/candidate_merge.h"
#include "perfgate/error.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"

namespace perfgate {

int merge_main(const MergeFlags& flags) {
  if (path_within(flags.out, flags.baselines_dir))
    throw Error("--out " + flags.out +
                " is inside the baselines folder; only `perfgate baseline approve` writes there");
  std::vector<NamedCandidate> parts;
  for (const std::string& file : flags.files) {
    if (std::filesystem::exists(flags.out) && std::filesystem::equivalent(file, flags.out))
      throw Error("--out " + flags.out + " is one of the candidates to merge; name a new file");
    Candidate candidate = read_candidate(file);
    verify_digest(candidate, file);
    parts.push_back({file, std::move(candidate)});
  }
  const ThresholdSet thresholds = ThresholdSet::load(flags.thresholds_dir);
  Candidate merged = merge_candidates(parts);
  // Pooled, the runs may disagree past what a baseline that still catches a 2x slowdown allows
  // (one part measured while the machine was busy): refused as propose refuses such runs.
  std::string too_wide;
  for (const CandidateCase& c : merged.cases)
    if (auto why = busy_runs(c.runs, thresholds.resolve(c.id, merged.machine_id())))
      too_wide += "  " + c.id + ": " + *why + "\n";
  if (!too_wide.empty())
    throw Error("refusing to merge: pooled, these cases' runs disagree as on a busy machine:\n" + too_wide +
                "nothing written; propose the busy period's part again when the machine is quiet");
  merged.digest = content_digest(merged);
  std::fputs(case_allowances(merged, thresholds).c_str(), stdout);
  write_file_atomically(flags.out, to_yaml(merged));
  std::printf("candidate: %s (%zu runs from %zu candidates)\n", flags.out.c_str(), merged.run_ids.size(),
              parts.size());
  const std::vector<DiffRow> rows = diff_candidate(BaselineStore(flags.baselines_dir), merged);
  std::fputs(render_candidate_diff(merged, rows, true, false).c_str(), stdout);
  std::fputs(unstable_cases(merged, thresholds).c_str(), stdout);
  const std::string& baselines = flags.baselines_dir;
  std::fputs(
      review_hints({flags.program, baselines != flags.default_baselines_dir ? baselines : "", ""}, flags.out)
          .c_str(),
      stdout);
  return 0;
}

}  // namespace perfgate
