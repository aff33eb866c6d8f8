// perfgate baseline show / diff: what is approved, and what a candidate would change, for a
// terminal or (--markdown) for a pull request.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "cli/baseline_subcommands.h"
#include "core/resolution.h"
#include "judge/thresholds.h"
#include "judge/verdict.h"
#include "perfgate/error.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"
#include "store/candidate.h"

namespace perfgate {
namespace {

struct ReviewFlags {
  std::string target;  // show: a case glob; diff: the candidate file
  std::string machine_id;
  std::string baselines_dir;
  std::string thresholds_dir;
  bool markdown = false;
};

int show_main(const ReviewFlags& flags) {
  const BaselineStore store(flags.baselines_dir);
  std::vector<BaselineCase> cases;
  for (auto& c : store.all(flags.machine_id))
    if (flags.target.empty() || case_matches(flags.target, c)) cases.push_back(std::move(c));
  // Each case's resolution under today's thresholds: what a check against it can catch.
  const ThresholdSet thresholds = ThresholdSet::load(flags.thresholds_dir);
  std::vector<std::string> catches;
  for (const auto& c : cases) {
    const auto noise = latency_noise(c.runs, thresholds.resolve(c.id, c.fingerprint.machine_id),
                                     {c.fits_in_cache.value_or(true), bound_by_memory(c.bound)});
    catches.push_back(noise ? resolution_text(noise->allowance.pct, noise->allowance.source) : "");
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

void add_common(CLI::App& command, ReviewFlags& flags, const Context& context) {
  flags.baselines_dir = context.baselines_dir();
  command.add_option("--baselines", flags.baselines_dir, "Approved baselines folder")->capture_default_str();
  command.add_flag("--markdown", flags.markdown, "Print GitHub-flavoured Markdown (for a pull request)");
}

}  // namespace

void add_baseline_review(CLI::App& baseline, Context& context) {
  auto show_flags = std::make_shared<ReviewFlags>();
  CLI::App* show = baseline.add_subcommand(
      "show", "List approved baselines: case, samples, medians, who approved them, when and why");
  show->add_option("glob", show_flags->target, "Case id glob (e.g. 'copy/cpu/*') or kernel name");
  show->add_option("--machine", show_flags->machine_id, "Only this machine id (default: every machine)");
  show_flags->thresholds_dir = context.thresholds_dir();
  show->add_option("--thresholds", show_flags->thresholds_dir,
                   "Thresholds folder (YAML): each case's resolution")
      ->capture_default_str();
  add_common(*show, *show_flags, context);
  show->callback([show_flags, &context] { context.exit_code = show_main(*show_flags); });

  auto diff_flags = std::make_shared<ReviewFlags>();
  CLI::App* diff = baseline.add_subcommand("diff",
                                           "What approving a candidate would change: per case and metric, "
                                           "old and new median and change %; exit 2 if it was edited");
  diff->add_option("file", diff_flags->target, "Candidate file from perfgate baseline propose")
      ->required()
      ->check(CLI::ExistingFile);
  add_common(*diff, *diff_flags, context);
  diff->callback([diff_flags, &context] { context.exit_code = diff_main(*diff_flags); });
}

}  // namespace perfgate
