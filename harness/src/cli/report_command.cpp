// `perfgate report RESULTS.json [--markdown F] [--html F] [--junit F] [--gbench F] ...` and
// `perfgate history CASE --history DIR`: wiring only; the printers live in harness/src/report.
#include <fnmatch.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/atomic_file.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "report/gbench_json.h"
#include "report/html_printer.h"
#include "report/junit_printer.h"
#include "report/markdown_printer.h"
#include "report/table_printer.h"
#include "store/history.h"
#include "store/result_json.h"

namespace perfgate::cli {
namespace {

struct ReportFlags {
  std::string results;
  std::string markdown, html, junit, gbench, json;
  std::string baseline;
  std::string history_dir;
  bool append_history = false;
};

struct HistoryFlags {
  std::string case_glob;
  std::string history_dir;
  std::string machine_id;
  bool json = false;
};

// "-" is standard output.
void emit(const std::string& file, const std::string& content) {
  if (file == "-")
    std::fputs(content.c_str(), stdout);
  else
    write_file_atomically(file, content);
}

int report_main(const ReportFlags& flags) {
  if (flags.append_history && flags.history_dir.empty()) throw Error("--append-history needs --history DIR");
  const RunResult run = read_results_or_gbench(flags.results);
  if (flags.append_history) {
    const int lines = append_history(flags.history_dir, run);
    std::fprintf(stderr, "perfgate report: %s\n",
                 lines > 0 ? fmt::format("appended {} cases of run {} to {}", lines, run.run_id,
                                         history_file(flags.history_dir, run.fingerprint.machine_id).string())
                                 .c_str()
                           : fmt::format("run {} is already in the history (or has no measured case)", run.run_id)
                                 .c_str());
  }
  const bool any = !flags.markdown.empty() || !flags.html.empty() || !flags.junit.empty() || !flags.gbench.empty() ||
                   !flags.json.empty();
  if (!any) std::fputs(render_markdown(run).c_str(), stdout);
  if (!flags.markdown.empty()) emit(flags.markdown, render_markdown(run));
  if (!flags.junit.empty()) emit(flags.junit, render_junit(run));
  if (!flags.json.empty()) write_results(flags.json, run);
  if (!flags.gbench.empty()) emit(flags.gbench, to_gbench_json(run).dump(2) + "\n");
  if (!flags.html.empty()) {
    HtmlInputs inputs;
    RunResult baseline;
    if (!flags.baseline.empty()) {
      baseline = read_results_or_gbench(flags.baseline);
      inputs.baseline = &baseline;
    }
    if (!flags.history_dir.empty())
      inputs.history = history_by_case(read_all_history(flags.history_dir, run.fingerprint.machine_id));
    emit(flags.html, render_html(run, inputs));
  }
  return 0;
}

// Display width of UTF-8 text (µ is two bytes, one column).
std::size_t columns(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

std::string right(const std::string& text, std::size_t width) {
  return std::string(width > columns(text) ? width - columns(text) : 0, ' ') + text;
}

int history_main(const HistoryFlags& flags) {
  std::vector<HistoryPoint> points;
  for (HistoryPoint& p : read_all_history(flags.history_dir, flags.machine_id))
    if (fnmatch(flags.case_glob.c_str(), p.case_id.c_str(), 0) == 0) points.push_back(std::move(p));
  if (flags.json) {
    for (const HistoryPoint& p : points)
      std::cout << nlohmann::json{{"machine_id", p.machine_id}, {"run_id", p.run_id},   {"started_at", p.started_at},
                                  {"commit", p.commit},         {"branch", p.branch},   {"case", p.case_id},
                                  {"verdict", to_string(p.verdict)}, {"medians", p.medians}}
                       .dump()
                << "\n";
    return 0;
  }
  if (points.empty()) {
    std::fprintf(stderr, "perfgate history: no entries for %s under %s\n", flags.case_glob.c_str(),
                 flags.history_dir.c_str());
    return 0;
  }
  for (const auto& [case_id, entries] : history_by_case(points)) {
    std::printf("%s\n  %-20s  %-24s  %-10s  %-12s  %10s  %8s  %11s\n", case_id.c_str(), "started", "machine", "commit",
                "verdict", "latency", "change", "bandwidth");
    double previous = 0;
    for (const HistoryPoint& p : entries) {
      const auto latency = p.medians.find(metric::latency_ns);
      const auto bandwidth = p.medians.find(metric::bandwidth_gbps);
      const double ns = latency == p.medians.end() ? 0 : latency->second;
      const std::string change = previous > 0 && ns > 0 ? fmt::format("{:+.1f}%", 100 * (ns / previous - 1)) : "";
      std::printf("  %-20s  %-24s  %-10s  %-12s  %s  %8s  %s\n", p.started_at.c_str(), p.machine_id.c_str(),
                  p.commit.substr(0, 10).c_str(), std::string(to_string(p.verdict)).c_str(),
                  right(ns > 0 ? format_duration_ns(ns) : "-", 10).c_str(), change.c_str(),
                  right(bandwidth == p.medians.end() ? "-" : format_bandwidth(bandwidth->second), 11).c_str());
      if (ns > 0) previous = ns;
    }
  }
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<ReportFlags>();
  CLI::App* report = app.add_subcommand(
      "report", "A run's report: Markdown (the default, to stdout), HTML with plots, JUnit XML, Google Benchmark JSON");
  report->add_option("RESULTS.json", flags->results,
                     "Results of a run (perfgate ... --json FILE), a results folder, or Google Benchmark JSON")
      ->required()
      ->check(CLI::ExistingPath);
  report->add_option("--markdown", flags->markdown, "Write the Markdown report to FILE (- for stdout)");
  report->add_option("--html", flags->html, "Write the self-contained HTML report to FILE");
  report->add_option("--junit", flags->junit, "Write JUnit XML (one testcase per case, metrics as properties) to FILE");
  report->add_option("--json", flags->json,
                     "Write the run as one results JSON file (a results folder becomes one merged run)");
  report->add_option("--gbench", flags->gbench, "Write the run as Google Benchmark JSON to FILE");
  report->add_option("--baseline", flags->baseline,
                     "Results whose samples the HTML distribution plots draw as the baseline")
      ->check(CLI::ExistingPath);
  report->add_option("--history", flags->history_dir,
                     "History folder (JSON Lines per machine): the HTML draws each case's trend from it");
  report->add_flag("--append-history", flags->append_history,
                   "Append this run's per-case medians to the --history folder first");
  report->footer("With no output option the Markdown goes to stdout. See docs/reports.md.");
  report->callback([flags, &context] { context.exit_code = report_main(*flags); });

  auto history_flags = std::make_shared<HistoryFlags>();
  CLI::App* history = app.add_subcommand("history", "A case's medians run after run, from a history folder");
  history->add_option("CASE", history_flags->case_glob, "Case id or glob, e.g. 'copy/cpu/*'")->required();
  history->add_option("--history", history_flags->history_dir, "History folder (perfgate report --append-history)")
      ->required();
  history->add_option("--machine", history_flags->machine_id, "Only this machine id (default: every machine)");
  history->add_flag("--json", history_flags->json, "One JSON object per entry instead of the table");
  history->callback([history_flags, &context] { context.exit_code = history_main(*history_flags); });
}

}  // namespace perfgate::cli
