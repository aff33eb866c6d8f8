// perfgate baseline propose: measures the selection in N separate processes, pools the runs into
// one candidate file and prints what it would change. Nothing under baselines/ is written.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/baseline_subcommands.h"
#include "cli/child_process.h"
#include "cli/options.h"
#include "cli/run_info.h"
#include "core/atomic_file.h"
#include "core/resolution.h"
#include "core/scratch_dir.h"
#include "judge/thresholds.h"
#include "judge/verdict.h"
#include "perfgate/error.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"
#include "store/candidate_pool.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

struct ProposeFlags {
  CommonOptions common;
  // Five: enough for the noise model to set one odd run apart (from four runs) and to see two
  // runs in another mode (stats/run_noise.h); more where runs are cheap and the noise matters.
  int runs = 5;
  std::string out;
  std::string binary_name;  // the hints name the command that was run
};

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

bool inside(const fs::path& file, const fs::path& folder) {
  const fs::path f = fs::weakly_canonical(fs::absolute(file));
  const fs::path d = fs::weakly_canonical(fs::absolute(folder));
  auto [end, _] = std::mismatch(d.begin(), d.end(), f.begin(), f.end());
  return end == d.end();
}

// The cases whose runs are multimodal or drift: said now, so the reviewer knows which cases
// will be judged with a wider allowance, and why.
std::string unstable_cases(const Candidate& candidate, const ThresholdSet& thresholds) {
  std::string out;
  int count = 0;
  for (const CandidateCase& c : candidate.cases) {
    const auto noise = latency_noise(c.runs, thresholds.resolve(c.id, candidate.machine_id()));
    if (!noise || !noise->noise.unstable) continue;
    out += "  " + c.id + ": " + noise->noise.why +
           " (catches >= " + resolution_text(noise->allowance.pct, noise->allowance.source) + ")\n";
    ++count;
  }
  if (count == 0) return "";
  return "unstable: " + std::to_string(count) + " case" + (count > 1 ? "s" : "") +
         " whose runs are multimodal or drift; each is judged with a wider, stated allowance:\n" + out;
}

int propose_main(const ProposeFlags& flags) {
  if (!flags.out.empty() && inside(flags.out, flags.common.baselines_dir))
    throw Error("--out " + flags.out +
                " is inside the baselines folder; only `perfgate baseline approve` writes there");
  const bool progress = !flags.common.quiet && isatty(STDERR_FILENO);
  ScratchDir scratch("perfgate-propose");
  std::vector<RunResult> runs;
  for (int i = 0; i < flags.runs; ++i) {
    if (progress)
      std::fprintf(stderr, "\r\033[Kmeasuring: run %d of %d (separate process)", i + 1, flags.runs);
    const fs::path json = scratch.path() / ("run-" + std::to_string(i + 1) + ".json");
    const ChildResult child = run_self(run_arguments(flags.common, json), false);
    if (progress) std::fprintf(stderr, "\r\033[K");
    if (fs::exists(json)) {
      runs.push_back(read_results(json));
      candidate_from_runs(runs, "");  // refuses now, with the reasons, rather than after N runs
    }
    if (child.exit_code != 0)
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " of " + std::to_string(flags.runs) +
                  " failed (perfgate run exited " + std::to_string(child.exit_code) + "); nothing written");
    if (runs.size() != static_cast<std::size_t>(i + 1))
      throw Error("refusing to propose: run " + std::to_string(i + 1) + " wrote no results; nothing written");
  }
  const Candidate candidate = [&] {
    Candidate c = candidate_from_runs(runs, utc_now_iso8601());
    c.digest = content_digest(c);
    return c;
  }();
  const BaselineStore store(flags.common.baselines_dir);
  const std::vector<DiffRow> rows = diff_candidate(store, candidate);
  const fs::path out =
      flags.out.empty() ? fs::path("candidate-" + candidate.machine_id() + ".yaml") : fs::path(flags.out);
  write_file_atomically(out, to_yaml(candidate));
  std::printf("candidate: %s\n", out.string().c_str());
  std::fputs(render_candidate_diff(candidate, rows, true, false).c_str(), stdout);
  std::fputs(unstable_cases(candidate, ThresholdSet::load(flags.common.thresholds_dir)).c_str(), stdout);
  std::printf(
      "review:  %s baseline diff %s --markdown\n"
      "approve: %s baseline approve %s --by NAME --reason TEXT\n",
      flags.binary_name.c_str(), out.string().c_str(), flags.binary_name.c_str(), out.string().c_str());
  return 0;
}

}  // namespace

void add_baseline_propose(CLI::App& baseline, Context& context) {
  auto flags = std::make_shared<ProposeFlags>();
  CLI::App* propose = baseline.add_subcommand(
      "propose",
      "Measure the selection in N separate runs and write a candidate file (nothing in baselines/ "
      "changes); refuses when a case has an error or fails its correctness check");
  add_selection_options(*propose, flags->common);
  flags->common.baselines_dir = context.baselines_dir();
  flags->common.thresholds_dir = context.thresholds_dir();
  flags->binary_name = context.binary_name;
  propose
      ->add_option("--runs", flags->runs,
                   "Separate runs (processes) to measure; their spread becomes part of the noise")
      ->capture_default_str()
      ->check(CLI::Range(2, 100));
  propose->add_option("--out", flags->out,
                      "Candidate file to write (default: ./candidate-<machine id>.yaml)");
  propose
      ->add_option("--baselines", flags->common.baselines_dir,
                   "Approved baselines to diff against (read only)")
      ->capture_default_str();
  propose->add_option("--thresholds", flags->common.thresholds_dir, "Thresholds folder (YAML)")
      ->capture_default_str();
  propose->add_option("--cache-dir", flags->common.cache_dir, "Where measured device peaks are cached");
  propose->add_flag("--quiet,-q", flags->common.quiet, "No progress line");
  propose->callback([flags, &context] { context.exit_code = propose_main(*flags); });
}

}  // namespace perfgate
