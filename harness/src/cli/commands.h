#pragma once
// The commands: for each, the flags its options set and its main, which does the work and returns
// the exit code. A command throws perfgate::Error for bad input: the command line prints it and
// exits 2. cli/command_line.cpp binds the flags to options and subcommands; it is the one unit
// that includes CLI11's header, which costs each unit that includes it seconds of compile time.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/context.h"
#include "cli/options.h"
#include "cli/run_flags.h"

namespace perfgate {

// Parses the command line and runs the command it names (plain `perfgate` is `perfgate run`).
int run_command_line(int argc, char** argv, Context& context);

// run (the default command) and check (what each CTest test runs): flags in cli/run_flags.h.
int run_main(const RunFlags& flags);
int check_main(RunFlags flags);

struct ListFlags {
  CommonOptions common;
  bool ctest = false;
  bool machine_id = false;
  std::optional<std::string> resource_spec;  // "-" = stdout
};
int list_main(const ListFlags& flags);

struct CompareFlags {
  std::string before, after;
  CommonOptions common;
};
int compare_main(const CompareFlags& flags);

// baseline propose, merge, show, diff, approve, drop.
struct ProposeFlags {
  CommonOptions common;
  // Five: enough for the noise model to set one odd run apart (from four runs) and to see two
  // runs in another mode (stats/run_noise.h); more where runs are cheap and the noise matters.
  int runs = 5;
  std::string out;
  std::string program;                // as typed, for the hints: they name the command that was run
  std::string default_baselines_dir;  // --baselines is repeated in the hints where not this
};
int propose_main(const ProposeFlags& flags);

struct MergeFlags {
  std::vector<std::string> files;  // candidates from `baseline propose`, two or more
  std::string out;
  std::string baselines_dir;  // to diff against (read only)
  std::string thresholds_dir;
  std::string program;  // as ProposeFlags
  std::string default_baselines_dir;
};
int merge_main(const MergeFlags& flags);

struct ReviewFlags {
  std::string target;  // show: a case glob; diff: the candidate file
  std::string machine_id;
  std::string baselines_dir;
  std::string thresholds_dir;
  std::string history_dir;  // show: how many GPUs or hosts its gated runs placed (judge/device_level.h)
  bool markdown = false;
};
int show_main(const ReviewFlags& flags);
int diff_main(const ReviewFlags& flags);

// --by, --reason, --yes, --baselines, --lock-timeout: who changes baselines/, and how.
struct UpdateFlags {
  std::string by;
  std::string reason;
  bool yes = false;
  std::string baselines_dir;
  double lock_timeout_s = 30;
};

struct ApproveFlags {
  UpdateFlags update;
  std::string file;
  std::string machine_mismatch_ok;
  std::string machine_id;
  std::string device;
  double max_age_days = 14;
};
int approve_main(const ApproveFlags& flags, const Context& context);

struct DropFlags {
  UpdateFlags update;
  std::string glob;
  std::string machine_id;
};
int drop_main(const DropFlags& flags, const Context& context);

struct ReportFlags {
  std::vector<std::string> results;
  std::string markdown, html, junit, gbench, json;
  std::string pr_comment, dashboard_url;  // the pull request comment (report/pr_comment.h)
  std::string baseline;
  std::string history_dir;
  std::string thresholds_dir;
  std::string baselines_dir;
  bool append_history = false;
};
int report_main(const ReportFlags& flags);

struct HistoryFlags {
  std::vector<std::string> case_globs;
  std::string history_dir;
  std::string machine_id;
  std::string thresholds_dir;
  std::string baselines_dir;
  bool json = false;
  bool changes = false;
  bool gate = false;
  bool notify = false;
  bool unbisected = false;           // print the open regression change points no bisect has recorded
  std::string program = "perfgate";  // as typed, for the command its gate prints
};
int history_main(const HistoryFlags& flags);

// dashboard: a static site of every machine's history (docs/dashboard.md).
struct DashboardFlags {
  std::string history_dir, out;
  std::string thresholds_dir;  // the `history` settings the change points are found under
  std::string baselines_dir;   // levels, allowances and approvals
};
int dashboard_main(const DashboardFlags& flags);

struct AckFlags {
  std::string id, by, reason, history_dir;
  std::string thresholds_dir, baselines_dir;  // to find the id among the history's changes
};
int ack_main(const AckFlags& flags);

// bisect: the first commit of a range at which cases got slower, each step measured A/B.
struct BisectFlags {
  CommonOptions common;  // cases, device, thresholds, baselines, cache dir, seed, json
  std::string good, bad;
  std::string change_point, history_dir;  // --change-point ID --history DIR instead of cases and a range
  std::string source;                     // default: the project this binary was built from
  std::string configure, build, binary;   // command templates (cli/commit_builds.h)
  std::vector<std::string> unrelated = {"*.md", "docs/*"};
  int max_builds = 12;
  int remeasure = 2;
  // Fresh A/B pairs per step (more than one: judged on the spread between them) and the change a
  // step tolerates; unset: 1 and ab_max_regression_pct, or from a change point (judge/step_allowance.h).
  std::optional<int> pairs;
  std::optional<double> allowed_pct;
  std::string work_dir;  // default: under the cache folder, one per repository, cases and range
  bool notify = false;
};
int bisect_main(const BisectFlags& flags);

struct NotifyFlags {
  std::vector<std::string> results;
  bool dry_run = false;
  std::string program = "perfgate";  // as typed, for the command it prints
};
int notify_main(const NotifyFlags& flags);

// serve (hidden): one side of an A/B check.
struct ServeFlags {
  std::string case_id;
  std::string device;
  std::uint64_t seed = 0;
};
int serve_main(const ServeFlags& flags);

// measure (hidden): a fresh process confirming a regression.
struct MeasureFlags {
  std::string case_id;
  std::string calibration_reference;  // the reference the case's baseline was calibrated against
  bool alone = false;                 // not calibrated: its baseline was timed alone
  // What the check's own sampling knew of its verdict (SamplingSettings: the least allowance, the
  // baseline's median of the series sampled): the fresh process stops on a decided verdict as
  // the check did. 0: sampled to the thresholds' precision target.
  double verdict_allowance_pct = 0;
  double verdict_baseline_median = 0;
  bool verdict_baseline_relative = false;
  CommonOptions common;  // device, seed, thresholds (sampling), cache dir, json
};
int measure_main(const MeasureFlags& flags, const Context& context);

}  // namespace perfgate
