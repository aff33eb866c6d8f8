// perfgate baseline propose: measures the selection in N separate processes, pools the runs into
// one candidate file and prints what it would change. Nothing under baselines/ is written.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <thread>

#include "cli/baseline_subcommands.h"
#include "cli/candidate_summary.h"
#include "cli/child_process.h"
#include "cli/options.h"
#include "cli/run_info.h"
#include "core/atomic_file.h"
#include "core/no_device.h"
#include "core/path_within.h"
#include "core/scratch_dir.h"
#include "judge/busy_runs.h"
#include "judge/candidate_pool.h"
#include "judge/thresholds.h"
#include "measure/device.h"
#include "perfgate/error.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// The `perfgate run` arguments that measure the same selection (cases first: --axis takes
// every value that follows it).
std::vector<std::string> run_arguments(const CommonOptions& o, const std::string& device, std::uint64_t order_seed,
                                       const fs::path& json) {
  std::vector<std::string> args{"run"};
  args.insert(args.end(), o.cases.begin(), o.cases.end());
  auto pass = [&args](const char* name, const std::string& value) {
    if (!value.empty()) args.insert(args.end(), {name, value});
  };
  for (const auto& glob : o.kernel_globs) pass("--kernel", glob);
  pass("--backend", o.backend);
  pass("--device", device);
  pass("--cache-dir", o.cache_dir);
  pass("--thresholds", o.thresholds_dir);
  for (const auto& axis : o.axes) pass("--axis", axis);
  if (order_seed != 0) args.insert(args.end(), {"--order-seed", std::to_string(order_seed)});
  args.insert(args.end(), {"--no-judge", "--quiet", "--color", "never", "--json", json.string()});
  return args;
}

// The cases of the last `wanted` runs that were measured on a busy machine (judge/busy_runs.h):
// their runs disagree, or a run of a raw-timed case waited for cores. One line each.
std::string busy_cases(const std::vector<RunResult>& runs, std::size_t wanted,
                       const ThresholdSet& thresholds) {
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

// The Vulkan devices one proposal measures: where no --device is given and the host has several
// GPUs of the model the default device is, every one of them (by index), so that a check on any
// of them is judged against its own runs (BaselineCase::run_devices); else the one selected.
std::vector<std::string> devices_to_measure(const CommonOptions& o) {
  if (o.backend != "vulkan" || !o.device.empty()) return {o.device};
  std::vector<GpuListing> gpus;
  try {
    gpus = list_vulkan_gpus("");
  } catch (const NoDevice&) {
    return {o.device};
  }
  std::vector<std::string> same_model;
  for (const GpuListing& g : gpus)
    if (!g.on_cpu && g.machine_id == gpus.front().machine_id) same_model.push_back(std::to_string(g.index));
  return same_model.size() < 2 ? std::vector<std::string>{o.device} : same_model;
}

// One round: a run in a process of its own on each device at once, as `ctest -j` checks them,
// each in a case order of its own (RunFlags::order_seed) where there are several devices, so
// that a case's runs meet the other GPUs' work in different cases, as checks do.
std::vector<ChildResult> measure_round(const CommonOptions& o, const std::vector<std::string>& devices,
                                       std::size_t round, const std::vector<fs::path>& jsons) {
  std::vector<ChildResult> children(devices.size());
  std::vector<std::exception_ptr> errors(devices.size());
  std::vector<std::thread> threads;
  for (std::size_t d = 0; d < devices.size(); ++d)
    threads.emplace_back([&, d] {
      try {
        const std::uint64_t order_seed = devices.size() > 1 ? round * devices.size() + d + 1 : 0;
        children[d] = run_self(run_arguments(o, devices[d], order_seed, jsons[d]), false);
      } catch (...) {
        errors[d] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return children;
}

// Every `stride`-th run from `offset`: one device's runs where each round measured `stride`.
std::vector<RunResult> every_nth(const std::vector<RunResult>& runs, std::size_t offset, std::size_t stride) {
  std::vector<RunResult> out;
  for (std::size_t i = offset; i < runs.size(); i += stride) out.push_back(runs[i]);
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
  const std::vector<std::string> devices = devices_to_measure(flags.common);
  const std::size_t per_round = devices.size();
  std::vector<RunResult> runs;  // round after round, each in the order of `devices`
  std::string busy;
  std::size_t rounds = 0;
  while (rounds < most && (rounds < wanted || !busy.empty())) {
    const std::size_t i = rounds;
    if (progress) {
      const std::string where =
          per_round > 1 ? fmt::format(" on each of {} GPUs", per_round) : std::string(" (separate process)");
      if (i < wanted)
        std::fprintf(stderr, "\r\033[Kmeasuring: run %zu of %zu%s", i + 1, wanted, where.c_str());
      else
        std::fprintf(stderr,
                     "\r\033[Kmeasuring: run %zu of up to %zu%s (the runs so far disagree: a busy machine?)",
                     i + 1, most, where.c_str());
    }
    std::vector<fs::path> jsons;
    for (std::size_t d = 0; d < per_round; ++d)
      jsons.push_back(scratch.path() / fmt::format("run-{}-{}.json", i + 1, d));
    const std::vector<ChildResult> children = measure_round(flags.common, devices, i, jsons);
    if (progress) std::fprintf(stderr, "\r\033[K");
    for (std::size_t d = 0; d < per_round; ++d) {
      const std::string which =
          std::to_string(i + 1) + (per_round > 1 ? " on GPU " + devices[d] : std::string());
      if (fs::exists(jsons[d])) {
        runs.push_back(read_results(jsons[d]));
        candidate_from_runs(runs, "");  // refuses now, with the reasons, rather than after N runs
      }
      if (children[d].exit_code != 0)
        throw Error("refusing to propose: run " + which + " failed (perfgate run exited " +
                    std::to_string(children[d].exit_code) + "); nothing written");
      if (runs.size() != i * per_round + d + 1)
        throw Error("refusing to propose: run " + which + " wrote no results; nothing written");
    }
    ++rounds;
    if (rounds >= wanted) {
      busy.clear();
      for (std::size_t d = 0; d < per_round; ++d) {
        const std::string found = busy_cases(every_nth(runs, d, per_round), wanted, thresholds);
        if (!found.empty()) busy += per_round > 1 ? "  GPU " + devices[d] + ":\n" + found : found;
      }
    }
  }
  if (!busy.empty())
    throw Error("refusing to propose: the machine was busy: after " + std::to_string(rounds) +
                " runs, no " + std::to_string(wanted) +
                " runs in a row agree as they do on a quiet machine; in the last " + std::to_string(wanted) +
                ":\n" + busy + "nothing written; propose again when the machine is quiet");
  const std::size_t set_aside = rounds - wanted;
  runs.erase(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(set_aside * per_round));
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
        "  beyond a quiet machine's noise, or waited for cores); the candidate holds the %zu runs after "
        "them\n",
        run_span(1, set_aside).c_str(), set_aside + wanted, wanted);
  if (per_round > 1)
    std::printf("measured on %zu GPUs of this host (--device %s), %zu runs each: a check on each is judged "
                "against its own runs\n",
                per_round, fmt::format("{}", fmt::join(devices, ", ")).c_str(), wanted);
  std::fputs(render_candidate_diff(candidate, rows, true, false).c_str(), stdout);
  if (const std::string left_out = skipped_cases(runs.front()); !left_out.empty())
    std::printf("left out: skipped on this device, so no baseline is proposed for them:%s\n",
                left_out.c_str());
  std::fputs(unstable_cases(candidate, thresholds).c_str(), stdout);
  const std::string& baselines = flags.common.baselines_dir;
  std::fputs(review_hints({flags.program, baselines != flags.default_baselines_dir ? baselines : "",
                           flags.common.device},
                          out)
                 .c_str(),
             stdout);
  return 0;
}

}  // namespace perfgate
