// perfgate baseline show / diff: what is approved, and what a candidate would change, for a
// terminal or (--markdown) for a pull request.
#include <algorithm>
#include <cstdio>

#include "cli/baseline_subcommands.h"
#include "core/resolution.h"
#include "judge/judge_case.h"
#include "judge/thresholds.h"
#include "judge/verdict.h"
#include "perfgate/error.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"
#include "store/candidate.h"

namespace perfgate {

int show_main(const ReviewFlags& flags) {
  const BaselineStore store(flags.baselines_dir);
  std::vector<BaselineCase> cases;
  for (auto& c : store.all(flags.machine_id))
    if (flags.target.empty() || case_matches(flags.target, c)) cases.push_back(std::move(c));
  // Each case's resolution under today's thresholds: what a check against it can catch.
  const ThresholdSet thresholds = ThresholdSet::load(flags.thresholds_dir);
  std::vector<std::string> catches;
  for (const auto& c : cases) {
    // A baseline of several GPUs of a host judges each against its own runs: one figure each.
    std::vector<std::string> devices;
    for (const auto& uuid : c.run_devices)
      if (std::find(devices.begin(), devices.end(), uuid) == devices.end()) devices.push_back(uuid);
    if (devices.empty()) devices.push_back(c.fingerprint.device_uuid);
    std::string text;
    for (const auto& uuid : devices) {
      const BaselineCase own = runs_of_device(c, uuid);
      const auto noise = latency_noise(own.runs, thresholds.resolve(c.id, c.fingerprint.machine_id),
                                       {c.fits_in_cache.value_or(true), bound_by_memory(c.bound)});
      text += (text.empty() ? "" : " / ") + (noise ? resolution_text(noise->allowance.pct, noise->allowance.source) : "");
    }
    catches.push_back(devices.size() > 1 ? text + " (per GPU)" : text);
  }
  std::fputs(render_baselines(cases, catches, flags.markdown).c_str(), stdout);
  return 0;
}

int diff_main(const ReviewFlags& flags) {
  const Candidate candidate = read_candidate(flags.target);
  const bool digest_ok = content_digest(candidate) == candidate.digest;
  const BaselineStore store(flags.baselines_dir);
  std::fputs(
      render_candidate_diff(candidate, diff_candidate(store, candidate), digest_ok, flags.markdown).c_str(),
      stdout);
  if (!digest_ok) verify_digest(candidate, flags.target);  // throws: exit 2
  return 0;
}

}  // namespace perfgate
