// `perfgate bisect CASE... --good REV --bad REV` (or `--change-point ID --history DIR`): the first
// commit of a range at which the cases got slower. Wiring only: judge/bisection.h searches,
// cli/commit_builds.h builds each commit in a worktree of its own, the A/B gate of `check --base`
// measures each step (gate/paired_measurement.h, two `perfgate serve` children), report/
// prints, notify/ alerts, and the history records the culprit beside the change point.
#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/ab_check.h"
#include "cli/child_process.h"
#include "cli/commands.h"
#include "cli/commit_builds.h"
#include "cli/git_range.h"
#include "cli/run_info.h"
#include "core/atomic_file.h"
#include "core/content_digest.h"
#include "core/file_lock.h"
#include "core/terminal_text.h"
#include "gate/gate.h"
#include "gate/paired_measurement.h"
#include "judge/bisect_outcome.h"
#include "judge/history_analysis.h"
#include "judge/pair_spread.h"
#include "judge/step_allowance.h"
#include "notify/bisect_alert.h"
#include "notify/config.h"
#include "notify/webhook_sender.h"
#include "perfgate/error.h"
#include "report/bisect_report.h"
#include "store/bisect_log.h"
#include "store/history_log.h"
#include "store/json_lines.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Exit codes (docs/history.md).
constexpr int kAnswered = 0;   // the first slower commit named, or no commit is slower
constexpr int kUndecided = 1;  // stopped at --max-builds, or the total step stayed inconclusive
constexpr int kCannot = 2;     // an end that does not build or lacks the case

// Its lines name commit subjects and paths from the repository: shown as text (core/terminal_text.h).
void say_bisect(const std::string& line) { std::cerr << "perfgate bisect: " << terminal_text(line) << "\n"; }

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What is bisected: the cases and the range, from the command line or from a change point.
struct Target {
  std::vector<std::string> cases;
  std::string good, bad;
  std::optional<ExpectedStep> expected;
};

Target target_of(const BisectFlags& flags) {
  if (flags.change_point.empty()) {
    if (flags.common.cases.empty())
      throw Error(
          "bisect: name the CASE to bisect (perfgate list shows them), or give --change-point ID --history "
          "DIR");
    if (flags.good.empty() || flags.bad.empty())
      throw Error("bisect: give both --good REV and --bad REV (or --change-point ID --history DIR)");
    return {flags.common.cases, flags.good, flags.bad, std::nullopt};
  }
  if (flags.history_dir.empty())
    throw Error("bisect: --change-point " + flags.change_point +
                " needs --history DIR, the history it was found in");
  if (!fs::is_directory(flags.history_dir))
    throw Error("bisect: --history " + flags.history_dir + " is not a folder (no such history)");
  // The culprit is recorded in BISECTED.log once found: a log whose last line was cut short is
  // refused now, before hours of builds, not after the answer.
  refuse_cut_last_line(bisected_file(flags.history_dir), "log entry");
  read_bisected(flags.history_dir);  // and every line of it an entry
  if (!flags.common.cases.empty() || !flags.good.empty() || !flags.bad.empty())
    throw Error(
        "bisect: --change-point takes the case and the range from the history: give no CASE, --good or "
        "--bad");
  std::optional<BaselineStore> baselines;
  if (fs::is_directory(flags.common.baselines_dir)) baselines.emplace(flags.common.baselines_dir);
  for (const CaseHistory& h :
       analyse_history(read_all_history(flags.history_dir), ThresholdSet::load(flags.common.thresholds_dir),
                       baselines ? &*baselines : nullptr, read_acknowledgements(flags.history_dir)))
    for (const HistoryChange& c : h.changes) {
      if (c.id != flags.change_point) continue;
      if (!c.regression)
        throw Error(
            fmt::format("bisect: change point {} is an improvement ({:+.1f}%): bisect finds the commit "
                        "that made a case slower",
                        c.id, c.step.magnitude_pct));
      if (c.commit_before == c.run_before || c.commit_after == c.run_after)
        throw Error("bisect: change point " + c.id + ": its runs recorded no commit (" + c.run_before + ", " +
                    c.run_after + "), so there is no range to bisect");
      return {{h.case_id},
              c.commit_before,
              c.commit_after,
              ExpectedStep{c.id, h.machine_id, c.step.magnitude_pct, c.step.low_pct, c.step.high_pct}};
    }
  throw Error("bisect: --change-point " + flags.change_point + " is no change point of the history in " +
              flags.history_dir + " (`perfgate history --changes --history " + flags.history_dir +
              "` lists them)");
}

bool only_unrelated(const RangeCommit& c, const std::vector<std::string>& globs) {
  return std::all_of(c.files.begin(), c.files.end(), [&](const std::string& file) {
    return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) {
      return !g.empty() && fnmatch(g.c_str(), file.c_str(), 0) == 0;
    });
  });
}

// This machine's id for the cases' backend, as `list --machine-id` says it.
std::string this_machine(const CaseSpec& spec, const std::string& device) {
  std::vector<std::string> args = {"list", "--machine-id", "--backend", std::string(to_string(spec.backend))};
  if (!device.empty()) args.insert(args.end(), {"--device", device});
  std::string id = run_self(args, true).stdout_text;
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

StepOutcome outcome_of(Verdict verdict) {
  switch (verdict) {
    case Verdict::regressed: return StepOutcome::slower;
    case Verdict::pass:
    case Verdict::improved: return StepOutcome::not_slower;
    case Verdict::inconclusive: return StepOutcome::inconclusive;
    default: return StepOutcome::skipped;
  }
}

// Worse first: one skipped case skips the step, one slower case makes it slower.
int severity(StepOutcome o) {
  switch (o) {
    case StepOutcome::skipped: return 3;
    case StepOutcome::slower: return 2;
    case StepOutcome::inconclusive: return 1;
    case StepOutcome::not_slower: return 0;
  }
  return 3;
}

// One case's part of a step.
struct CaseStep {
  StepOutcome outcome = StepOutcome::skipped;
  std::string message;
  double ratio = 0, low = 0, high = 0;
  int rounds = 0;
  std::vector<double> pairs;  // --pairs: every pair ratio judged, the earlier ones included
};

CaseStep from_result(const CaseResult& r) {
  CaseStep c{outcome_of(r.verdict), r.message};
  if (r.ab) {
    c.ratio = r.ab->median_ratio;
    c.low = r.ab->interval_low;
    c.high = r.ab->interval_high;
    c.rounds = r.ab->rounds;
  }
  return c;
}

// --pairs K: K fresh pairs, each measured to its stopping rule and unconfirmed, pooled with the
// pairs of this step's earlier (inconclusive) measurements and judged on the spread between
// them (judge/pair_spread.h), under the thresholds of the machine the pairs ran on. A first pair
// that cannot measure the case (a build without it, a failure) decides the step as one pair
// would; a later one that fails is left out and counted.
CaseStep measure_pairs(Gate& gate, const CaseSpec& spec, std::vector<double> pairs, int more,
                       const ThresholdSet& thresholds, std::uint64_t seed) {
  CaseStep c;
  double allowed_pct = 0, significance = 0;
  int failed = 0, throttled = 0;
  for (int i = 0; i < more; ++i) {
    const CaseResult r = gate.measure_once(spec, seed + 7919 * (pairs.size() + failed));
    if (!r.ab || r.ab->median_ratio <= 0) {
      if (pairs.empty()) return from_result(r);
      ++failed;
      continue;
    }
    pairs.push_back(r.ab->median_ratio);
    c.rounds += r.ab->rounds;
    throttled += r.throttled_samples;
    allowed_pct = r.ab->max_regression_pct;
    significance = thresholds.resolve(spec.id, r.ab->head.fingerprint.machine_id).significance;
  }
  if (failed == more) {  // every new pair failed: nothing to judge the pooled ones under
    c.outcome = StepOutcome::inconclusive;
    c.message = fmt::format("all {} new pairs failed; measured again within --remeasure", more);
    c.pairs = std::move(pairs);
    return c;
  }
  const PairsJudgement j = judge_pairs(pairs, allowed_pct, significance);
  c.outcome = outcome_of(j.verdict);
  c.ratio = j.ratio;
  c.low = j.interval.low;
  c.high = j.interval.high;
  const auto pct = [](double ratio) { return fmt::format("{:+.2f}%", (ratio - 1) * 100); };
  c.message = fmt::format("{} over {} pairs (interval {} to {}), allowed {:.3g}%: {}", pct(j.ratio), j.pairs,
                          pct(j.interval.low), std::isfinite(j.interval.high) ? pct(j.interval.high) : "inf",
                          allowed_pct, to_string(c.outcome));
  if (failed) c.message += fmt::format("; {} pair{} failed and left out", failed, failed > 1 ? "s" : "");
  if (throttled)
    c.message += fmt::format("; {} samples dropped: taken while the GPU was throttled", throttled);
  c.pairs = std::move(pairs);
  return c;
}

// Every case measured A/B, head build against base build, as `check --base` does: rounds until
// settled (under --allowed where given), a regression confirmed by a fresh pair; with --pairs,
// several fresh pairs judged together (measure_pairs), `earlier` holding what this step's
// earlier measurements gave.
void measure_step(BisectStep& step, const std::vector<CaseSpec>& specs, const AbSettings& settings,
                  const ThresholdSet& thresholds, const StepAllowance& judging,
                  const CommonOptions& common, const std::vector<BisectStep>& earlier) {
  std::optional<AbAllowance> allowance;
  if (judging.allowed_pct)
    allowance = AbAllowance{*judging.allowed_pct, "--allowed", fmt::format("--allowed {:.3g}%", *judging.allowed_pct)};
  const auto start = Clock::now();
  bool first = true;
  for (const CaseSpec& spec : specs) {
    PairedSource source(
        thresholds, [&settings](const CaseSpec& s, std::uint64_t seed) { return start_serve_pair(s, settings, seed); },
        allowance);
    Gate gate(source, common.input_seed());
    CaseStep c;
    if (judging.pairs > 1) {
      c = measure_pairs(gate, spec, pairs_so_far(earlier, step.head, step.base, spec.id), judging.pairs,
                        thresholds, common.input_seed());
    } else {
      c = from_result(gate.run(spec));
    }
    if (!c.pairs.empty()) step.pairs[spec.id] = c.pairs;
    // The step is its worst case's: the most severe verdict, then the largest ratio.
    const bool worse = first || severity(c.outcome) > severity(step.outcome) ||
                       (severity(c.outcome) == severity(step.outcome) && c.ratio > step.ratio);
    first = false;
    if (!worse) continue;
    step.outcome = c.outcome;
    step.message = (specs.size() > 1 ? spec.id + ": " : "") + c.message;
    step.base_failed = c.outcome == StepOutcome::skipped && c.message.starts_with("base build");
    step.ratio = c.ratio;
    step.low = c.low;
    step.high = c.high;
    step.rounds = c.rounds;
  }
  step.measure_s = seconds_since(start);
}

fs::path default_work_dir(const BisectFlags& flags, const GitRange& git, const std::string& cases,
                          const std::string& good, const std::string& bad) {
  const std::string digest = sha256_digest(git.top().string() + "\n" + cases + "\n" + good + "\n" + bad);
  return flags.common.cache_path() / "bisect" /
         (git.top().filename().string() + "-" + digest.substr(digest.find(':') + 1, 12));
}

void send_alert(const BisectOutcome& outcome) {
  const Environment env = process_environment();
  const WebhookConfig config = load_webhook_config(env, say_bisect);
  if (!config.url)
    return say_bisect(
        "no webhook configured (PERFGATE_WEBHOOK_URL or PERFGATE_WEBHOOK_CONFIG): no alert sent");
  WebhookSender sender(config, {}, {.log = say_bisect});
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const Alert alert = make_bisect_alert(outcome, ci_context(env), config.format, now_ms);
  const SendReport report = sender.send(alert);
  const bool delivered = std::find(report.delivered_ids.begin(), report.delivered_ids.end(), alert.id) !=
                         report.delivered_ids.end();
  say_bisect(delivered ? "alert delivered"
                       : fmt::format("alert not delivered: it waits in {}; `perfgate notify` sends it",
                                     config.outbox.string()));
}

}  // namespace

int bisect_main(const BisectFlags& flags) {
  const auto started = Clock::now();
  const Target target = target_of(flags);
  std::vector<CaseSpec> specs;
  std::string cases;
  for (const std::string& id : target.cases) {
    try {
      specs.push_back(parse_case_id(id));
    } catch (const Error& e) {
      throw Error(
          std::string("bisect: ") + e.what() +
          " in this perfgate (`perfgate list` shows its cases; a project bisects with its own perfgate)");
    }
    cases += (cases.empty() ? "" : " ") + id;
  }
  const GitRange git(flags.source);
  if (const auto modified = git.modified_files(); !modified.empty())
    throw Error(
        fmt::format("bisect: the source {} has uncommitted changes ({}{}): commit or stash them; bisect "
                    "builds committed revisions only",
                    git.top().string(), modified.front(),
                    modified.size() > 1 ? fmt::format(" and {} more", modified.size() - 1) : ""));
  const std::string good = git.resolve(target.good, "--good"), bad = git.resolve(target.bad, "--bad");
  if (good == bad) throw Error("bisect: --good and --bad name the same commit " + good);
  std::vector<BisectCommit> commits;
  for (const RangeCommit& c : git.commits(good, bad))
    commits.push_back(
        {c.sha, c.subject, c.sha != good && c.sha != bad && only_unrelated(c, flags.unrelated)});

  const std::string machine = this_machine(specs.front(), flags.common.device);
  if (target.expected && machine != target.expected->machine_id)
    throw Error("bisect: change point " + target.expected->change_id + " was found on " +
                target.expected->machine_id + ", and this is " + machine + ": bisect it on that machine");
  // Absolute: git runs in the source (`git -C`), so a relative folder would put the worktree
  // inside the source checkout while the logs went under the current folder.
  const fs::path work = fs::absolute(flags.work_dir.empty() ? default_work_dir(flags, git, cases, good, bad)
                                                            : fs::path(flags.work_dir));
  const auto unrelated =
      std::count_if(commits.begin(), commits.end(), [](const BisectCommit& c) { return c.unrelated; });
  say_bisect(fmt::format("{} on {}: {} commits from {} to {} ({} changing only {}); work folder {}", cases,
                         machine, commits.size(), good.substr(0, 12), bad.substr(0, 12), unrelated,
                         "unrelated files, not built", work.string()));

  const ThresholdSet thresholds = ThresholdSet::load(flags.common.thresholds_dir);
  const StepAllowance judging = step_allowance(
      flags.allowed_pct, flags.pairs,
      target.expected ? std::optional<double>(target.expected->change_pct) : std::nullopt,
      thresholds.resolve(specs.front().id, machine).ab_max_regression_pct);
  const std::string judged_under =
      fmt::format("allowed {}, {} pair{}",
                  judging.allowed_pct ? fmt::format("{:g}%", *judging.allowed_pct) : "ab_max_regression_pct",
                  judging.pairs, judging.pairs == 1 ? "" : "s");
  // One bisect at a time in a work folder (a retried or parallel CI job meets the same default
  // folder): a second would check out other commits in the worktree under the first one's build,
  // and keep the wrong binary for a commit. Held until this bisect ends.
  const FileLock work_lock(work / "bisect.lock", std::chrono::milliseconds(0), "bisect of this work folder");
  const BuildTemplates templates{flags.configure, flags.build, flags.binary};
  const std::string executable = fs::read_symlink("/proc/self/exe").filename().string();
  CommitBuilds builds(git, work, templates, executable);
  // The steps a log holds were measured on its templates' builds: other templates start afresh.
  BisectLog log(work / "bisect.log",
                {cases, good, bad, judged_under + ", builds " + templates_key(templates, executable)});
  Bisection bisection(commits, {flags.max_builds, flags.remeasure});
  BisectOutcome progress = bisect_outcome(bisection);
  progress.expected = target.expected;
  try {
    for (const BisectStep& s : log.replayed()) {
      if (!bisection.next()) break;
      bisection.record(s);
      progress.steps.push_back(s);
    }
  } catch (const Error& e) {
    throw Error("bisect: the log " + log.file().string() + " does not replay (" + e.what() +
                "): remove it to start afresh");
  }
  double resumed_s = 0;  // what the replayed steps took when they ran
  for (const BisectStep& s : progress.steps) resumed_s += s.build_s + s.measure_s;
  if (!progress.steps.empty())
    say_bisect(fmt::format("resumed: {} steps from {}", progress.steps.size(), log.file().string()));

  if (!judging.why.empty()) say_bisect("each step judged under " + judging.why);
  while (const auto probe = bisection.next()) {
    BisectStep step{commits[probe->head].sha, commits[probe->base].sha};
    const CommitBuild base = builds.get(step.base);
    const CommitBuild head = builds.get(step.head);
    step.build_s = base.build_s + head.build_s;
    if (!base.binary) {
      step.base_failed = true;
      step.message = "the base " + step.base.substr(0, 12) + " " + base.failure;
    } else if (!head.binary) {
      step.message = head.failure;
    } else {
      measure_step(step, specs, {*base.binary, flags.common.device, *head.binary}, thresholds, judging, flags.common,
                   progress.steps);
    }
    log.append(step);
    bisection.record(step);
    progress.steps.push_back(step);
    say_bisect(render_bisect_step_line(progress, step));
  }

  BisectOutcome outcome = bisect_outcome(bisection);
  outcome.case_ids = target.cases;
  outcome.machine_id = machine;
  outcome.source = git.top().string();
  outcome.expected = target.expected;
  outcome.steps = progress.steps;
  outcome.wall_s = seconds_since(started) + resumed_s;
  std::vector<std::string> failed;
  for (const BisectStep& s : outcome.steps) {
    outcome.build_s += s.build_s;
    outcome.measure_s += s.measure_s;
    const std::string& who = s.base_failed ? s.base : s.head;
    if (s.outcome == StepOutcome::skipped && std::find(failed.begin(), failed.end(), who) == failed.end())
      failed.push_back(who);
  }
  outcome.failed_builds = static_cast<int>(failed.size());
  std::fputs(render_bisect_steps(outcome).c_str(), stdout);
  std::fputs(render_bisect_conclusion(outcome).c_str(), stdout);
  if (!flags.common.json_file.empty())
    write_file_atomically(flags.common.json_file, bisect_json(outcome).dump(2) + "\n");
  if (target.expected && !outcome.culprits.empty()) {
    append_bisected(flags.history_dir, bisected_record(outcome, utc_now_iso8601()));
    say_bisect("recorded beside change point " + target.expected->change_id + " in " +
               bisected_file(flags.history_dir).string());
  }
  if (flags.notify) send_alert(outcome);
  switch (outcome.end) {
    case BisectEnd::found:
    case BisectEnd::none_slower: return kAnswered;
    case BisectEnd::good_unusable:
    case BisectEnd::bad_unusable: return kCannot;
    default: return kUndecided;
  }
}

}  // namespace perfgate
