// `perfgate report RESULTS.json [--markdown F] [--html F] [--junit F] [--gbench F] ...`: wiring
// only; the printers live in harness/src/report.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "core/atomic_file.h"
#include "core/device_runs.h"
#include "judge/history_analysis.h"
#include "perfgate/error.h"
#include "report/approved_baseline.h"
#include "report/fleet_html.h"
#include "report/fleet_markdown.h"
#include "report/gbench_json.h"
#include "report/history_changes.h"
#include "report/html_printer.h"
#include "report/junit_printer.h"
#include "report/markdown_printer.h"
#include "report/pr_comment.h"
#include "report/xml_escape.h"
#include "store/gbench_import.h"
#include "store/history.h"
#include "store/history_log.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

// The run's cases' histories on its machine, judged (change points, drift).
std::vector<CaseHistory> judged_history(const ReportFlags& flags, const RunResult& run) {
  std::set<std::string> ids;
  for (const auto& c : run.cases) ids.insert(c.id);
  std::vector<HistoryPoint> points;
  for (HistoryPoint& p : read_all_history(flags.history_dir, run.fingerprint.machine_id))
    if (ids.count(p.case_id)) points.push_back(std::move(p));
  std::optional<BaselineStore> baselines;
  if (std::filesystem::is_directory(flags.baselines_dir)) baselines.emplace(flags.baselines_dir);
  std::vector<CaseHistory> histories =
      analyse_history(points, ThresholdSet::load(flags.thresholds_dir), baselines ? &*baselines : nullptr,
                      read_acknowledgements(flags.history_dir));
  attach_bisections(histories, read_bisected(flags.history_dir));
  return histories;
}

// "-" is standard output.
void emit(const std::string& file, const std::string& content) {
  if (file == "-")
    std::fputs(content.c_str(), stdout);
  else
    write_file_atomically(file, content);
}

// Several machines' results: one page with the cases as rows and the machines as columns.
int fleet_report_main(const ReportFlags& flags) {
  for (const auto& [option, value] : {std::pair<const char*, const std::string&>{"--junit", flags.junit},
                                      {"--gbench", flags.gbench},
                                      {"--json", flags.json},
                                      {"--baseline", flags.baseline},
                                      {"--history", flags.history_dir},
                                      {"--pr-comment", flags.pr_comment}})
    if (!value.empty())
      throw Error(std::string("report: ") + option +
                  " takes one run; with several results only --markdown and --html");
  // Every file counts: one column per device, files of one device merged (core/device_runs.h).
  std::vector<ResultsFile> files;
  for (const auto& path : flags.results) files.push_back({path, read_results_or_gbench(path)});
  if (!flags.html.empty()) {
    std::size_t cases = 0;
    for (const ResultsFile& file : files) cases += file.run.cases.size();
    check_html_size(cases, "report --html of " + std::to_string(files.size()) + " results");
  }
  const FleetView view = make_fleet_view(runs_per_device(std::move(files)));
  if (flags.markdown.empty() && flags.html.empty()) std::fputs(render_fleet_markdown(view).c_str(), stdout);
  if (!flags.markdown.empty()) emit(flags.markdown, render_fleet_markdown(view));
  if (!flags.html.empty()) emit(flags.html, render_fleet_html(view));
  return 0;
}

}  // namespace

int report_main(const ReportFlags& flags) {
  if (flags.results.size() > 1) return fleet_report_main(flags);
  if (flags.append_history && flags.history_dir.empty()) throw Error("--append-history needs --history DIR");
  if (!flags.dashboard_url.empty() && flags.pr_comment.empty())
    throw Error("--dashboard-url needs --pr-comment FILE");
  const RunResult run = read_results_or_gbench(flags.results.front());
  if (!flags.html.empty()) check_html_size(run.cases.size(), flags.results.front());
  if (flags.append_history) {
    const int lines = append_history(flags.history_dir, run, flags.results.front());
    std::fprintf(
        stderr, "perfgate report: %s\n",
        lines > 0
            ? fmt::format("appended {} cases of run {} to {}", lines, run.run_id,
                          history_file(flags.history_dir, run.fingerprint.machine_id).string())
                  .c_str()
            : fmt::format("run {} is already in the history (or has no measured case)", run.run_id).c_str());
  }
  const bool any = !flags.markdown.empty() || !flags.html.empty() || !flags.junit.empty() ||
                   !flags.gbench.empty() || !flags.json.empty() || !flags.pr_comment.empty();
  std::vector<CaseHistory> history;
  if (!flags.history_dir.empty() && (!any || !flags.markdown.empty() || !flags.html.empty()))
    history = judged_history(flags, run);
  const std::string history_markdown = render_history_markdown(history);
  if (!any) std::fputs((render_markdown(run) + history_markdown).c_str(), stdout);
  if (!flags.markdown.empty()) emit(flags.markdown, render_markdown(run) + history_markdown);
  if (!flags.pr_comment.empty())
    emit(flags.pr_comment, render_pr_comment(run, {.dashboard_url = flags.dashboard_url}));
  if (!flags.junit.empty()) emit(flags.junit, render_junit(run));
  if (!flags.json.empty()) write_results(flags.json, run);
  if (!flags.gbench.empty()) emit(flags.gbench, to_gbench_json(run).dump(2) + "\n");
  if (!flags.html.empty()) {
    HtmlInputs inputs;
    RunResult baseline;
    if (!flags.baseline.empty()) {
      baseline = read_results_or_gbench(flags.baseline);
      inputs.baseline = &baseline;
    } else if (std::filesystem::is_directory(flags.baselines_dir)) {
      // Judged against approved baselines: theirs beside the run's samples.
      baseline = approved_baseline_run(run, BaselineStore(flags.baselines_dir));
      if (!baseline.cases.empty()) {
        inputs.baseline = &baseline;
        inputs.baseline_from =
            "the approved baselines in <code>" + xml_escape(flags.baselines_dir) + "</code>";
      }
    }
    if (!flags.history_dir.empty())
      inputs.history = history_by_case(read_all_history(flags.history_dir, run.fingerprint.machine_id));
    inputs.history_changes = std::move(history);
    emit(flags.html, render_html(run, inputs));
  }
  return 0;
}

}  // namespace perfgate
