// perfgate baseline propose: measures the selection in N separate processes, pools the runs into
// one candidate file and prints what it would change. Nothing under baselines/ is written.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli/baseline_subcommands.h"
#include "cli/candidate_summary.h"
#include "cli/child_process.h"
#include "cli/options.h"
#include "cli/run_info.h"
#include "core/atomic_file.h"
#include "core/path_within.h"
#include "core/scratch_dir.h"
#include "judge/busy_runs.h"
#include "judge/thresholds.h"
#include "perfgate/error.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"
#include "store/candidate_pool.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// The `perfgate run` arguments that measure the same selection (cases first: --axis takes
// every value that follows it).
std::vector<std::string> run_arguments(const CommonOptions& o, const fs::path& json) {
  std::vector<std::string> args{"run"};
  args.insert(args.end(), o.cases.begin(), o.cases.end());
  auto pass = [&args](const char* name, const std::string& value) {
    if (!value.empty()) args.insert(args.end(), {name, value});
  };
  for (const auto& glob : o.kernel_globs) pass("--kernel", glob);
  pass("--backend", o.backend);
  pass("--device", o.device);
  pass("--cache-dir", o.cache_dir);
  pass("--thresholds", o.thresholds_dir);
  for (const auto& axis : o.axes) pass("--axis", axis);
  args.insert(args.end(), {"--no-judge", "--quiet", "--color", "never", "--json", json.string()});
  return args;
}

// The cases of the last `wanted` runs that were measured on a busy machine (judge/busy_runs.h):
// their runs disagree, or a run of a raw-timed case waited for cores. One line each.
std::string busy_cases(const std::vector<RunResult>& runs, std::size_t wanted, const ThresholdSet& thresholds) {
  const std::vector<RunResult> last(runs.end() - static_cast<std::ptrdiff_t>(wanted), runs.end());
  const Candidate candidate = candidate_from_runs(last, "");
  std::string out;
  for (const CandidateCase& c : candidate.cases)
    if (auto why = busy_runs(c.runs, thresholds.resolve(c.id, candidate.machine_id())))
      out += "  " + c.id + ": " + *why + "\n";
  for (std::size_t i = 0; i < last.size(); ++i)
    for (const CaseResult& c : last[i].cases)
      if (auto why = waited_for_cores(c))
        out += "  " + c.id + ": run " + std::to_string(runs.size() - wanted + i + 1) + ": " + *why + "\n";
  return out;
}

std::string run_span(std::size_t first, std::size_t last) {
  return first == last ? "run " + std::to_string(first)
                       : "runs " + std::to_string(first) + "-" + std::to_string(last);
}

}  // namespace

int propose_main(const ProposeFlags& flags) {
  if (!flags.out.empty() && path_within(flags.out, flags.common.baselines_dir))
    throw Error("--out " + flags.out +
                " is inside the baselines folder; only `perfgate baseline approve` writes there");
  const ThresholdSet thresholds = ThresholdSet::load(flags.common.thresholds_dir);
  const bool progress = !flags.common.quiet && isatty(STDERR_FILENO);
  ScratchDir scratch("perfgate-propose");
  // The candidate is the last `wanted` runs. Where their cases disagree as on a busy machine,
  // one more run is measured and the oldest set aside, up to twice the runs asked for.
  const std::size_t wanted = static_cast<std::size_t>(flags.runs);
  const std::size_t most = 2 * wanted;
  std::vector<RunResult> runs;
  std::string busy;
  while (runs.size() < most && (runs.size() < wanted || !busy.empty())) {
    const std::size_t i = runs.size();
    if (progress) {
      if (i < wanted)
        std::fprintf(stderr, "\r\033[Kmeasuring: run %zu of %zu (separate process)", i + 1, wanted);
      else
        std::fprintf(stderr,
                     "\r\033[Kmeasuring: run %zu of up to %zu (the runs so far disagree: a busy machine?)",
                     i + 1, most);
    }
    const fs::path json = scratch.path() / ("run-" + std::to_string(i + 1) + ".json");
    const ChildResult child = run_self(run_arguments(flags.common, json), false);
    if (progress) std::fprintf(stderr, "\r\033[K");
    if (fs::exists(json)) {
      runs.push_back(read_results(json));
      candidate_from_runs(runs, "");  // refuses now, with the reasons, rather than after N runs
    }
    if (child.exit_code != 0)
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " failed (perfgate run exited " +
                  std::to_string(child.exit_code) + "); nothing written");
    if (runs.size() != i + 1)
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " wrote no results; nothing written");
    if (runs.size() >= wanted) busy = busy_cases(runs, wanted, thresholds);
  }
  if (!busy.empty())
    throw Error("refusing to propose: the machine was busy: after " + std::to_string(runs.size()) +
                " runs, no " + std::to_string(wanted) +
                " runs in a row agree as they do on a quiet machine; in the last " + std::to_string(wanted) +
                ":\n" + busy + "nothing written; propose again when the machine is quiet");
  const std::size_t set_aside = runs.size() - wanted;
  runs.erase(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(set_aside));
  const Candidate candidate = [&] {
    Candidate c = candidate_from_runs(runs, utc_now_iso8601());
    c.digest = content_digest(c);
    return c;
  }();
  const fs::path out =
      flags.out.empty() ? fs::path("candidate-" + candidate.machine_id() + ".yaml") : fs::path(flags.out);
  std::fputs(case_allowances(candidate, thresholds).c_str(), stdout);
  write_file_atomically(out, to_yaml(candidate));
  std::printf("candidate: %s\n", out.string().c_str());
  std::fflush(stdout);
  // Written before the approved baselines are read: a baseline file that cannot be read is an
  // error then, and the minutes of runs measured are kept.
  const std::vector<DiffRow> rows = diff_candidate(BaselineStore(flags.common.baselines_dir), candidate);
  if (set_aside > 0)
    std::printf(
        "set aside: %s of %zu, measured while the machine was busy (their cases' runs disagreed far\n"
        "  beyond a quiet machine's noise, or waited for cores); the candidate holds the %zu runs after them\n",
        run_span(1, set_aside).c_str(), set_aside + wanted, wanted);
  std::fputs(render_candidate_diff(candidate, rows, true, false).c_str(), stdout);
  if (const std::string left_out = skipped_cases(runs.front()); !left_out.empty())
    std::printf("left out: skipped on this device, so no baseline is proposed for them:%s\n", left_out.c_str());
  std::fputs(unstable_cases(candidate, thresholds).c_str(), stdout);
  std::fputs(review_hints(flags.binary_name, out).c_str(), stdout);
  return 0;
}

}  // namespace perfgate
