// The command line: every command's options and subcommands, bound to the flags the commands
// take (cli/commands.h). The one unit that includes CLI11's header: it costs each unit that
// includes it about 5 s of compile time, once here instead of in every command's file.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <memory>
#include <string>

#include "cli/baseline_subcommands.h"
#include "cli/commands.h"
#include "cli/commit_builds.h"
#include "cli/run_cases.h"
#include "core/sysinfo.h"
#include "core/terminal_text.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string fmt_number(const std::string& before, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return before + text;
}

// Selection, device and output options (run, check, list, baseline propose). `run` and `propose`
// measure on the best device here when --backend is unset; `check` and `list` take every backend.
enum class BackendDefault { best_device, every_backend };
void add_selection_options(CLI::App& command, CommonOptions& o, BackendDefault unset) {
  command.add_option("cases", o.cases, "Case globs (e.g. 'copy/cpu/*') or kernel names");
  command
      .add_option("--backend", o.backend,
                  unset == BackendDefault::best_device ? "cpu or vulkan (default: a Vulkan GPU, else the CPU)"
                                                       : "cpu or vulkan (default: every backend)")
      ->check(CLI::IsMember({"cpu", "vulkan"}));
  // One glob per --kernel, repeatable; a value after it is a case glob again.
  command.add_option("--kernel", o.kernel_globs, "Kernel name glob, e.g. 'q4_0*' (repeatable: any of them)")
      ->allow_extra_args(false);
  command.add_option("--device", o.device, "Vulkan device: index or part of its name");
  command.add_option("--axis", o.axes, "Override an axis: NAME=V1,V2 or NAME=FIRST:LAST:xF (repeatable)")
      ->take_all();
}

// --thresholds and --baselines, each declared here once for every command that reads the folder:
// its default (the project's folder, cli/context.h) and one help text, to which `read_for` adds what
// this command reads there.
void add_thresholds_option(CLI::App& command, std::string& dir, const Context& context,
                           const std::string& read_for = "") {
  dir = context.thresholds_dir();
  command
      .add_option("--thresholds", dir, "Thresholds folder (YAML)" + (read_for.empty() ? "" : ": " + read_for))
      ->capture_default_str();
}

void add_baselines_option(CLI::App& command, std::string& dir, const Context& context,
                          const std::string& read_for = "") {
  dir = context.baselines_dir();
  command
      .add_option("--baselines", dir, "Approved baselines folder" + (read_for.empty() ? "" : ": " + read_for))
      ->capture_default_str();
}

// --cache-dir: every command that measures reads and writes the device peaks there.
void add_cache_dir_option(CLI::App& command, CommonOptions& o) {
  command.add_option("--cache-dir", o.cache_dir, "Where measured device peaks are cached");
}

// --json, --baselines, --thresholds, --cache-dir, --seed, --quiet, --color.
void add_run_options(CLI::App& command, CommonOptions& o, const Context& context) {
  command.add_option("--json", o.json_file, "Write the run's results JSON to FILE");
  add_baselines_option(command, o.baselines_dir, context);
  add_thresholds_option(command, o.thresholds_dir, context);
  add_cache_dir_option(command, o);
  command.add_option("--seed", o.seed, "Seed of the random inputs (default: fresh each run)");
  command.add_flag("--quiet,-q", o.quiet, "Print only the table (no progress line)");
  command.add_option("--color", o.color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

// --trace and --events: what run and check can write beside their results.
void add_timeline_options(CLI::App& command, RunFlags& flags) {
  command.add_option(
      "--trace", flags.trace_file,
      "Write the run as a timeline FILE.json (Chrome Trace Event Format: Perfetto, speedscope)");
  command.add_option(
      "--events", flags.events_file,
      "Append one JSON line per dispatch (geometry, GPU ns, host encode ns) and per case to FILE");
}

// --history: the machine's record of its own noise, which run and check judge with.
void add_history_option(CLI::App& command, RunFlags& flags) {
  command
      .add_option("--history", flags.history_dir,
                  "Judge each case with the spread its runs in this history DIR have shown on this machine, "
                  "where it holds enough of them (in place of the thresholds' floors)")
      ->envname("PERFGATE_HISTORY");
}

void add_run_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* run = app.add_subcommand(
      "run", "Run the default suite on the best device here and print a table (the default command)");
  set_context(*flags, context);
  add_selection_options(*run, flags->common, BackendDefault::best_device);
  add_run_options(*run, flags->common, context);
  run->add_flag("--no-judge", flags->no_judge, "Measure only; do not compare with baselines");
  run->add_option("--order-seed", flags->order_seed, "Measure the cases in an order shuffled by this seed")
      ->group("");  // baseline propose's, on a host of several GPUs
  add_timeline_options(*run, *flags);
  add_history_option(*run, *flags);
  run->callback([flags, &context] { context.exit_code = run_main(*flags); });
}

void add_check_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* check = app.add_subcommand(
      "check", "Measure cases and judge them against their baselines (what each CTest test runs)");
  set_context(*flags, context);
  add_selection_options(*check, flags->common, BackendDefault::every_backend);
  add_run_options(*check, flags->common, context);
  check->add_option("--results-dir", flags->results_dir,
                    "Also write each case's results to DIR/<case>.json (merged by report/notify DIR)");
  add_timeline_options(*check, *flags);
  add_history_option(*check, *flags);
  check->add_option("--base", flags->base,
                    "A/B: measure against this base build (its perfgate binary or build folder) at the same "
                    "moment instead of the stored baseline (default: $PERFGATE_BASE)");
  check->add_flag("--require-baseline", flags->require_baseline,
                  "A missing baseline fails (exit 1) instead of skipping (77)");
  check->callback([flags, &context] { context.exit_code = check_main(*flags); });
}

void add_list_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<ListFlags>();
  CLI::App* list = app.add_subcommand("list", "List kernels, cases, backends and the devices found here");
  add_selection_options(*list, flags->common, BackendDefault::every_backend);
  list->add_flag("--ctest", flags->ctest,
                 "One line per case for CTest discovery: <case id> <kernel> <backend> <needs> (gpu: one GPU; "
                 "machine: every core, for CPU cases and Vulkan on a CPU implementation)");
  list->add_flag("--machine-id", flags->machine_id, "Print only this machine's id for the backend");
  list->add_option("--resource-spec", flags->resource_spec,
                   "Write a CTest resource spec of this host's GPUs (`gpus`, one slot each) to FILE "
                   "(default: stdout), for ctest --resource-spec-file; --device narrows it")
      ->expected(0, 1)
      ->default_str("-");
  list->callback([flags, &context] { context.exit_code = list_main(*flags); });
}

void add_compare_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<CompareFlags>();
  CLI::App* compare =
      app.add_subcommand("compare", "Judge one results file against another (B against A as baseline)");
  compare->add_option("A", flags->before, "Results JSON taken as the baseline")
      ->required()
      ->check(CLI::ExistingFile);
  compare->add_option("B", flags->after, "Results JSON to judge")->required()->check(CLI::ExistingFile);
  add_thresholds_option(*compare, flags->common.thresholds_dir, context);
  compare->add_option("--json", flags->common.json_file, "Write B with its new verdicts to FILE");
  compare->add_option("--color", flags->common.color, "auto, always or never");
  compare->callback([flags, &context] { context.exit_code = compare_main(*flags); });
}

void add_baseline_propose(CLI::App& baseline, Context& context) {
  auto flags = std::make_shared<ProposeFlags>();
  CLI::App* propose = baseline.add_subcommand(
      "propose",
      "Measure the selection in N separate runs and write a candidate file (nothing in baselines/ "
      "changes); refuses when a case has an error or fails its correctness check");
  add_selection_options(*propose, flags->common, BackendDefault::best_device);
  flags->program = context.program;
  flags->default_baselines_dir = context.baselines_dir();
  propose
      ->add_option("--runs", flags->runs,
                   "Separate runs (processes) to measure; their spread becomes part of the noise. Runs that "
                   "disagree as on a busy machine, or whose raw-timed cases waited for cores, are measured "
                   "again, up to twice as many, then refused")
      ->capture_default_str()
      ->check(CLI::Range(2, 100));
  propose->add_option("--out", flags->out,
                      "Candidate file to write (default: ./candidate-<machine id>.yaml)");
  add_baselines_option(*propose, flags->common.baselines_dir, context, "to diff against (read only)");
  add_thresholds_option(*propose, flags->common.thresholds_dir, context);
  add_cache_dir_option(*propose, flags->common);
  propose->add_flag("--quiet,-q", flags->common.quiet, "No progress line");
  propose->callback([flags, &context] { context.exit_code = propose_main(*flags); });
}

void add_baseline_merge(CLI::App& baseline, Context& context) {
  auto flags = std::make_shared<MergeFlags>();
  CLI::App* merge = baseline.add_subcommand(
      "merge",
      "Pool candidates proposed at different times on this machine, or on several GPUs of one model, into "
      "one candidate, so its noise spans how the machine moves between periods (a shared runner's "
      "neighbours, its cache modes) and a GPU none of them is can be judged (three or more); refuses "
      "candidates from other machines, CPU hosts, drivers or builds, or of other code");
  merge->add_option("files", flags->files, "Candidate files from perfgate baseline propose (two or more)")
      ->required()
      ->expected(2, -1)
      ->check(CLI::ExistingFile);
  merge->add_option("--out", flags->out, "Merged candidate file to write")->required();
  flags->program = context.program;
  flags->default_baselines_dir = context.baselines_dir();
  add_baselines_option(*merge, flags->baselines_dir, context, "to diff against (read only)");
  add_thresholds_option(*merge, flags->thresholds_dir, context);
  merge->callback([flags, &context] { context.exit_code = merge_main(*flags); });
}

// --baselines and --markdown, for show and diff.
void add_review_options(CLI::App& command, ReviewFlags& flags, const Context& context) {
  add_baselines_option(command, flags.baselines_dir, context);
  command.add_flag("--markdown", flags.markdown, "Print GitHub-flavoured Markdown (for a pull request)");
}

void add_baseline_review(CLI::App& baseline, Context& context) {
  auto show_flags = std::make_shared<ReviewFlags>();
  CLI::App* show = baseline.add_subcommand(
      "show", "List approved baselines: case, samples, medians, who approved them, when and why");
  show->add_option("glob", show_flags->target, "Case id glob (e.g. 'copy/cpu/*') or kernel name");
  show->add_option("--machine", show_flags->machine_id, "Only this machine id (default: every machine)");
  add_thresholds_option(*show, show_flags->thresholds_dir, context, "each case's resolution");
  add_review_options(*show, *show_flags, context);
  show->add_option(
          "--history", show_flags->history_dir,
          "A history DIR of gated runs: say per case how many GPUs or hosts other than the baseline's its "
          "runs there have placed (5 runs at the baseline's kernel source each)")
      ->envname("PERFGATE_HISTORY");
  show->callback([show_flags, &context] { context.exit_code = show_main(*show_flags); });

  auto diff_flags = std::make_shared<ReviewFlags>();
  CLI::App* diff = baseline.add_subcommand("diff",
                                           "What approving a candidate would change: per case and metric, "
                                           "old and new median and change %; exit 2 if it was edited");
  diff->add_option("file", diff_flags->target, "Candidate file from perfgate baseline propose")
      ->required()
      ->check(CLI::ExistingFile);
  add_review_options(*diff, *diff_flags, context);
  diff->callback([diff_flags, &context] { context.exit_code = diff_main(*diff_flags); });
}

// Every floating-point option: a finite number (nan and inf pass every comparison-based range
// check) within its range, refused in one message that names the value and the range in plain
// numbers (never a double's limit). `above_low`: low itself is refused; `high` infinite: no upper
// bound.
CLI::Validator finite_number(double low, double high, bool above_low = false) {
  const std::string range = above_low && std::isinf(high) ? fmt_number("above ", low)
                            : std::isinf(high)            ? fmt_number("", low) + " or more"
                            : above_low ? fmt_number("above ", low) + fmt_number(" and at most ", high)
                                        : fmt_number("from ", low) + fmt_number(" to ", high);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
          return "'" + text + "' is not a finite number (expected " + range + ")";
        if (value < low || (above_low && value == low) || value > high)
          return "'" + text + "' is out of range (expected " + range + ")";
        return "";
      },
      range);
}

// A name or reason written into a JSON Lines log or a YAML file: UTF-8 only.
const CLI::Validator& utf8_text() {
  static const CLI::Validator utf8([](std::string& text) { return utf8_problem(text); }, "UTF-8");
  return utf8;
}

// --by, --reason, --yes, --baselines, --lock-timeout: who changes baselines/, and how.
void add_update_options(CLI::App& command, UpdateFlags& flags, const Context& context) {
  const CLI::Validator& utf8 = utf8_text();
  command
      .add_option("--by", flags.by,
                  "Who approves (a person's name or login): recorded per case and in the log")
      ->required()
      ->check(utf8);
  command.add_option("--reason", flags.reason, "Why: recorded per case and in the log")
      ->required()
      ->check(utf8);
  command.add_flag("--yes,-y", flags.yes, "Do not ask for confirmation on a terminal");
  add_baselines_option(command, flags.baselines_dir, context);
  command
      .add_option("--lock-timeout", flags.lock_timeout_s,
                  "Seconds to wait for another approval holding the folder's lock")
      ->capture_default_str()
      ->check(finite_number(0, 3600));
}

void add_baseline_approve(CLI::App& baseline, Context& context) {
  auto flags = std::make_shared<ApproveFlags>();
  CLI::App* approve = baseline.add_subcommand(
      "approve",
      "Move a candidate into baselines/ under your name: refuses a candidate that was edited, "
      "measured on another machine or is too old; writes atomically under a lock and logs it");
  approve->add_option("file", flags->file, "Candidate file from perfgate baseline propose")
      ->required()
      ->check(CLI::ExistingFile);
  add_update_options(*approve, flags->update, context);
  approve->add_option("--machine-mismatch-ok", flags->machine_mismatch_ok,
                      "Accept a candidate measured on another machine id, for this REASON (logged)");
  approve->add_option("--machine-id", flags->machine_id,
                      "This machine's id, instead of asking the device (logged)");
  approve->add_option("--device", flags->device,
                      "Vulkan device to ask for the machine id: index or part of its name");
  approve->add_option("--max-age", flags->max_age_days, "Refuse candidates older than DAYS (0: no limit)")
      ->capture_default_str()
      ->check(finite_number(0, kInfinity));
  approve->callback([flags, &context] { context.exit_code = approve_main(*flags, context); });
}

void add_baseline_drop(CLI::App& baseline, Context& context) {
  auto flags = std::make_shared<DropFlags>();
  CLI::App* drop = baseline.add_subcommand(
      "drop", "Remove approved baselines of retired cases, under your name and logged");
  drop->add_option("glob", flags->glob, "Case id glob (e.g. 'copy/cpu/n=1024') or kernel name")->required();
  drop->add_option("--machine", flags->machine_id, "Only this machine id (default: every machine)");
  add_update_options(*drop, flags->update, context);
  drop->callback([flags, &context] { context.exit_code = drop_main(*flags, context); });
}

void add_baseline_command(CLI::App& app, Context& context) {
  CLI::App* baseline = app.add_subcommand(
      "baseline",
      "Propose, merge, review, approve and drop baselines: a new baseline enters baselines/ only when a "
      "named person approves it (docs/baselines.md)");
  baseline->require_subcommand(1);
  add_baseline_propose(*baseline, context);
  add_baseline_merge(*baseline, context);
  add_baseline_review(*baseline, context);
  add_baseline_approve(*baseline, context);
  add_baseline_drop(*baseline, context);
}

void add_report_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<ReportFlags>();
  CLI::App* report = app.add_subcommand(
      "report",
      "A run's report: Markdown (the default, to stdout), HTML with plots, JUnit XML, Google Benchmark JSON; "
      "or several machines' runs side by side");
  report
      ->add_option("RESULTS.json", flags->results,
                   "Results of a run (perfgate ... --json FILE), a results folder, or Google Benchmark JSON; "
                   "several (one per machine): one page, cases as rows and machines as columns")
      ->required()
      ->check(CLI::ExistingPath);
  report->add_option("--markdown", flags->markdown, "Write the Markdown report to FILE (- for stdout)");
  report->add_option("--html", flags->html, "Write the self-contained HTML report to FILE");
  report->add_option(
      "--junit", flags->junit,
      "Write JUnit XML (one testcase per case, its metrics as name: value lines in system-out; "
      "the run's ids as the suite's properties) to FILE");
  report->add_option("--json", flags->json,
                     "Write the run as one results JSON file (a results folder becomes one merged run)");
  report->add_option("--gbench", flags->gbench, "Write the run as Google Benchmark JSON to FILE");
  report->add_option("--pr-comment", flags->pr_comment,
                     "Write the pull request comment to FILE (- for stdout), which ci/pr_comment.py posts or "
                     "updates: verdicts worst first, A/B, geomean; under 65,536 characters");
  report->add_option("--dashboard-url", flags->dashboard_url,
                     "The dashboard's root URL: the --pr-comment links to URL/index.html#/run/<run id>");
  report
      ->add_option("--baseline", flags->baseline,
                   "Results whose samples the HTML distribution plots draw as the baseline")
      ->check(CLI::ExistingPath);
  report->add_option("--history", flags->history_dir,
                     "History folder (JSON Lines per machine): the HTML draws each case's trend from it");
  report->add_flag("--append-history", flags->append_history,
                   "Append this run's per-case medians to the --history folder first");
  add_thresholds_option(*report, flags->thresholds_dir, context,
                        "the `history` settings the --history change points are found under");
  add_baselines_option(
      *report, flags->baselines_dir, context,
      "the HTML's distributions beside the run's (the cases judged against them, as judged), "
      "and the history's drift");
  report->footer("With no output option the Markdown goes to stdout. See docs/reports.md.");
  report->callback([flags, &context] { context.exit_code = report_main(*flags); });
}

void add_history_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<HistoryFlags>();
  flags->program = context.program;
  CLI::App* history = app.add_subcommand(
      "history", "Cases' medians run after run from a history folder; their change points, drift and gate");
  history->add_option("CASE", flags->case_globs,
                      "Case ids or globs, e.g. 'copy/cpu/*' (default: every case)");
  history->add_option("--history", flags->history_dir, "History folder (perfgate report --append-history)");
  history->add_option("--machine", flags->machine_id, "Only this machine id (default: every machine)");
  history->add_flag("--changes", flags->changes, "Change points and drift per case, as a table");
  history->add_flag("--gate", flags->gate,
                    "Exit 1 on an unacknowledged regression change point or drift past its allowance");
  history->add_flag("--notify", flags->notify,
                    "Post one webhook alert per new regression change point (each only once)");
  history->add_flag("--json", flags->json, "JSON instead of the table");
  history->add_flag("--unbisected", flags->unbisected,
                    "Print the ids of open regression change points that no `perfgate bisect --change-point` "
                    "has recorded yet, one a line (what CI's bisect job bisects)");
  add_thresholds_option(*history, flags->thresholds_dir, context, "its `history` settings");
  add_baselines_option(*history, flags->baselines_dir, context, "for drift against them");
  history->footer(
      "Exit codes: 0 no gate failure (or no --gate); 1 --gate found an open regression change point or "
      "drift; 2 bad input, or --notify's alert refused by the receiver; 3 --notify's alert only queued in "
      "the "
      "outbox (the next --notify sends it). See docs/history.md.");

  auto ack_flags = std::make_shared<AckFlags>();
  CLI::App* ack = history->add_subcommand(
      "ack", "Accept a change point or drift: logged beside the history, never gated or alerted again");
  ack->add_option("ID", ack_flags->id, "cp-... or drift-... (perfgate history --changes)")->required();
  ack->add_option("--by", ack_flags->by, "Who accepts it")->required()->check(utf8_text());
  ack->add_option("--reason", ack_flags->reason, "Why the change is wanted")->required()->check(utf8_text());
  ack->add_option("--history", ack_flags->history_dir, "History folder (it must hold the id)")->required();
  add_thresholds_option(*ack, ack_flags->thresholds_dir, context, "its `history` settings, as for --changes");
  add_baselines_option(*ack, ack_flags->baselines_dir, context, "for drift against them, as for --changes");
  ack->callback([ack_flags, &context] { context.exit_code = ack_main(*ack_flags); });

  history->callback([flags, history, ack, &context] {
    if (history->got_subcommand(ack)) return;
    context.exit_code = history_main(*flags);
  });
}

void add_dashboard_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<DashboardFlags>();
  CLI::App* dashboard = app.add_subcommand("dashboard",
                                           "A static site of every machine's history: what needs attention "
                                           "first, how many devices of each machine id are "
                                           "calibrated, each case's trend, each run's verdicts");
  dashboard->add_option("--history", flags->history_dir, "History folder (perfgate report --append-history)")
      ->required()
      ->check(CLI::ExistingDirectory);
  dashboard
      ->add_option("--out", flags->out,
                   "Folder the site is written to (SITE/index.html opens it; replaced when rebuilt)")
      ->required();
  add_thresholds_option(*dashboard, flags->thresholds_dir, context,
                        "its `history` settings, as for history --changes");
  add_baselines_option(
      *dashboard, flags->baselines_dir, context,
      "their levels and allowances drawn as bands, who approved them (APPROVALS.log), and which "
      "GPUs or hosts of each machine id they judge at their own level");
  dashboard->footer(
      "Opens from file:// and from any static host; every asset is inside SITE. Views: index.html, "
      "index.html#/case/<case id, URI-encoded>, index.html#/run/<run id>. Exit codes: 0 written; 2 bad input "
      "(a history or log line perfgate refuses, named by file and line). See docs/dashboard.md.");
  dashboard->callback([flags, &context] { context.exit_code = dashboard_main(*flags); });
}

void add_notify_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<NotifyFlags>();
  flags->program = context.program;
  CLI::App* notify = app.add_subcommand(
      "notify", "Post a run's verdicts and deltas to the webhook; first delivers what waits in the outbox");
  notify->add_option("RESULTS.json", flags->results,
                     "results of a run (perfgate ... --json FILE, or a results folder); several (one per "
                     "machine of a pipeline) make one combined alert");
  notify->add_flag("--dry-run", flags->dry_run, "print the payload that would be sent; send nothing");
  notify->footer(
      R"(Configuration (environment, or a YAML file named by PERFGATE_WEBHOOK_CONFIG):
  PERFGATE_WEBHOOK_URL        where alerts go (never printed: logs show the host only)
  PERFGATE_WEBHOOK_SECRET     whsec_<base64> Standard Webhooks signing secret
  PERFGATE_WEBHOOK_FORMAT     generic (default) | slack
  PERFGATE_WEBHOOK_SEND       regressions (default) | deltas | always
  PERFGATE_WEBHOOK_CA_BUNDLE  extra CA bundle (TLS is always verified)
  PERFGATE_WEBHOOK_TIMEOUT_S, PERFGATE_WEBHOOK_CONNECT_TIMEOUT_S, PERFGATE_WEBHOOK_ATTEMPTS
  PERFGATE_OUTBOX             undelivered alerts (default $XDG_CACHE_HOME/perfgate/outbox)
Exit codes: 0 delivered or nothing to send; 2 bad input or an alert refused by the receiver;
3 queued in the outbox, not delivered (the next `perfgate notify` sends it).
See docs/webhooks.md.)");
  notify->callback([flags, &context] { context.exit_code = notify_main(*flags); });
}

void add_bisect_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<BisectFlags>();
  flags->source = context.project_dir;
  flags->common.thresholds_dir = context.thresholds_dir();
  flags->common.baselines_dir = context.baselines_dir();
  const BuildTemplates defaults = default_build_templates();
  flags->configure = defaults.configure;
  flags->build = defaults.build;
  flags->binary = defaults.binary;
  CLI::App* bisect = app.add_subcommand("bisect",
                                        "Find the first commit of a range at which cases got slower: each "
                                        "commit built in a worktree of its own "
                                        "and measured A/B, at the same moment, against the good end");
  bisect->add_option("CASE", flags->common.cases,
                     "Case ids to bisect (a commit is slower when one of them is); none with --change-point");
  bisect->add_option("--good", flags->good, "A commit (sha, branch, tag, HEAD~N) where the cases were fast");
  bisect->add_option("--bad", flags->bad,
                     "A later commit, on the first-parent line after --good, where they were slower");
  bisect->add_option(
      "--change-point", flags->change_point,
      "Bisect a change point of the history instead (cp-..., `perfgate history --changes`): its "
      "case, its commit range and its machine");
  bisect->add_option("--history", flags->history_dir,
                     "History folder holding the change point; the culprit is recorded there (BISECTED.log)");
  bisect->add_option("--source", flags->source,
                     "The git repository to bisect (default: the project this perfgate "
                     "was built from)");
  bisect
      ->add_option(
          "--configure", flags->configure,
          "Configure command, run once in the worktree ({source}, {build}, {sha}, {target} replaced; "
          "empty: none)")
      ->capture_default_str();
  bisect
      ->add_option("--build", flags->build,
                   "Build command, run per commit (empty: --binary names prebuilt binaries, one per {sha})")
      ->capture_default_str();
  bisect
      ->add_option("--binary", flags->binary,
                   "Where a commit's perfgate binary is after its build ({target}: this binary's name)")
      ->capture_default_str();
  bisect
      ->add_option("--unrelated", flags->unrelated,
                   "Glob of files no case depends on (repeatable): a commit changing only such files is "
                   "neither built nor measured; '' measures every commit")
      ->capture_default_str();
  bisect
      ->add_option("--max-builds", flags->max_builds,
                   "Stop before building more commits than this (both ends "
                   "included)")
      ->capture_default_str()
      ->check(CLI::Range(2, 1000));
  bisect
      ->add_option("--remeasure", flags->remeasure,
                   "Measure an inconclusive step again at most this many times before setting it aside")
      ->capture_default_str()
      ->check(CLI::Range(0, 20));
  bisect
      ->add_option("--pairs", flags->pairs,
                   "Fresh A/B pairs per step, judged on the spread between them and pooled when a step is "
                   "measured again (default 1: one pair, confirmed by a fresh one; 10 with --change-point "
                   "where half its step is finer than ab_max_regression_pct); more where pairs carry "
                   "biases of their own as large as the step sought (docs/history.md)")
      ->check(CLI::Range(1, 100));
  bisect
      ->add_option(
          "--allowed", flags->allowed_pct,
          "The change a step tolerates before a commit counts as slower, % (default: the thresholds' "
          "ab_max_regression_pct, or half a --change-point's step where that is finer); finer on a GPU "
          "whose A/A pairs agree closer (docs/history.md)")
      ->check(finite_number(0, kInfinity, true));
  bisect->add_option(
      "--work-dir", flags->work_dir,
      "Worktree, builds, kept binaries and the log (default: under --cache-dir, one per range); "
      "the same command run again resumes from its log");
  bisect->add_option("--json", flags->common.json_file,
                     "Write the outcome to FILE (first_bad: the full sha; the steps)");
  bisect->add_flag("--notify", flags->notify,
                   "Post the outcome to the webhook (signed; the outbox keeps it if undelivered)");
  bisect->add_option("--device", flags->common.device, "Vulkan device: index or part of its name");
  bisect
      ->add_option("--thresholds", flags->common.thresholds_dir, "Thresholds folder (YAML): the A/B settings")
      ->capture_default_str();
  bisect
      ->add_option("--baselines", flags->common.baselines_dir, "Approved baselines, as for history --changes")
      ->capture_default_str();
  add_cache_dir_option(*bisect, flags->common);
  bisect->add_option("--seed", flags->common.seed, "Seed of the random inputs (default: fresh each step)");
  bisect->footer(
      "Exit codes: 0 an answer: the first slower commit named, or no commit is slower; 1 no answer: stopped "
      "at "
      "--max-builds, or the range's total step stayed inconclusive; 2 bad input, or an end that does not "
      "build "
      "or lacks the case. See docs/history.md.");
  bisect->callback([flags, &context] { context.exit_code = bisect_main(*flags); });
}

// Hidden: `check --base` runs it.
void add_serve_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<ServeFlags>();
  CLI::App* serve =
      app.add_subcommand("serve", "One side of an A/B check, driven line by line on stdin (internal)");
  serve->group("");
  serve->add_option("case", flags->case_id, "Case id")->required();
  serve->add_option("--device", flags->device, "Vulkan device: index or part of its name");
  serve->add_option("--seed", flags->seed, "Seed of the random inputs (default: fresh)");
  serve->callback([flags, &context] { context.exit_code = serve_main(*flags); });
}

// Hidden: `check` and `run` start it to confirm a regression.
void add_measure_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<MeasureFlags>();
  CLI::App* measure = app.add_subcommand("measure", "One fresh measurement of a case, not judged (internal)");
  measure->group("");
  measure->add_option("case", flags->case_id, "Case id")->required();
  measure->add_option("--device", flags->common.device, "Vulkan device: index or part of its name");
  measure->add_option("--seed", flags->common.seed, "Seed of the random inputs (default: fresh)");
  add_thresholds_option(*measure, flags->common.thresholds_dir, context, "the sampling");
  measure->add_option("--calibrate-against", flags->calibration_reference,
                      "Calibration reference case id (the baseline's), where the case is calibrated");
  measure->add_flag("--alone", flags->alone,
                    "Time the case alone, not calibrated (its baseline was timed so)");
  measure
      ->add_option("--verdict-allowance", flags->verdict_allowance_pct,
                   "The check's least allowance in %: sampling also stops once the verdict is decided")
      ->check(CLI::NonNegativeNumber);
  measure
      ->add_option("--verdict-median", flags->verdict_baseline_median,
                   "The baseline's median of the series sampled, the verdict's centre")
      ->check(CLI::NonNegativeNumber);
  measure->add_flag("--verdict-relative", flags->verdict_baseline_relative,
                    "That median is of times relative to the calibration reference");
  add_cache_dir_option(*measure, flags->common);
  measure->add_option("--json", flags->common.json_file, "Write the result to FILE")->required();
  measure->callback([flags, &context] { context.exit_code = measure_main(*flags, context); });
}

}  // namespace

int run_command_line(int argc, char** argv, Context& context) {
  CLI::App app{
      "perfgate: a performance regression gate for compute kernels.\n"
      "Measures each kernel's latency and bandwidth, judges it against the approved\n"
      "baseline under the YAML thresholds, and fails on a real regression.\n"
      "Exit codes: 0 pass/improved, 1 regressed, 2 error, 77 skipped (no device or baseline)."};
  app.set_version_flag("--version", perfgate_version());
  app.require_subcommand(0, 1);
  add_run_command(app, context);
  add_check_command(app, context);
  add_list_command(app, context);
  add_compare_command(app, context);
  add_baseline_command(app, context);
  add_report_command(app, context);
  add_history_command(app, context);
  add_dashboard_command(app, context);
  add_notify_command(app, context);
  add_bisect_command(app, context);
  add_serve_command(app, context);
  add_measure_command(app, context);
  try {
    if (argc == 1) {  // plain `perfgate` is `perfgate run`
      const char* run_args[] = {argv[0], "run", nullptr};
      app.parse(2, const_cast<char**>(run_args));
    } else {
      app.parse(argc, argv);
    }
    if (app.get_subcommands().empty()) {
      std::fputs(app.help().c_str(), stdout);
      return 0;
    }
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // The message quotes the value given: shown as text (core/terminal_text.h).
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", terminal_text(e.what()).c_str());
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "perfgate: error: %s\n", terminal_text(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfgate: internal error: %s\n", terminal_text(e.what()).c_str());
    return 2;
  }
  return context.exit_code;
}

}  // namespace perfgate
