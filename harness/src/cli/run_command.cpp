// perfgate run: the suite with a readable table. perfgate check: what each CTest test runs,
// with CTestMeasurement output and the verdict's exit code.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

#include "cli/ab_check.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_info.h"
#include "measure/gate.h"
#include "measure/peaks.h"
#include "perfgate/error.h"
#include "report/ab_lines.h"
#include "report/breakdown.h"
#include "report/event_stream.h"
#include "report/table_printer.h"
#include "store/result_json.h"

namespace perfgate::cli {
namespace {

struct RunFlags {
  CommonOptions common;
  std::string project_dir;
  bool require_baseline = false;
  std::string results_dir;
  std::string events_file;
  bool no_judge = false;
  std::string base;  // check: the base build to measure against (A/B); "" = the stored baseline
};

// "[3/16] copy/cpu/n=1048576" on one terminal line, overwritten; nothing when not a terminal.
class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
  void show(std::size_t index, std::size_t total, const std::string& id) {
    if (!enabled_) return;
    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", index + 1, total, id.c_str());
    std::fflush(stderr);
  }
  ~Progress() {
    if (enabled_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool enabled_;
};

void print_ctest_measurements(const CaseResult& r) {
  for (const auto& [name, metric] : r.metrics)
    std::printf("<CTestMeasurement type=\"numeric/double\" name=\"%s\">%.6g</CTestMeasurement>\n",
                name.c_str(), metric.summary.median);
  for (const auto& j : r.judgements)
    std::printf("<CTestMeasurement type=\"numeric/double\" name=\"%s_change_pct\">%.3f</CTestMeasurement>\n",
                j.metric.c_str(), j.change_pct);
}

void print_check_details(const CaseResult& r) {
  std::printf("%s: %s\n", r.id.c_str(), std::string(to_string(r.verdict)).c_str());
  if (!r.message.empty()) std::printf("  %s\n", r.message.c_str());
  if (!r.check.empty()) std::printf("  correctness: %s\n", r.check.c_str());
  for (const auto& j : r.judgements)
    std::printf("  %-15s %-12s %s\n", j.metric.c_str(), std::string(to_string(j.verdict)).c_str(),
                j.reason.c_str());
  std::fputs(render_ab_sides(r).c_str(), stdout);
}

// Measures and judges the cases of one backend; appends to `run`.
void run_backend(const RunFlags& flags, Backend backend, const std::vector<CaseSpec>& cases,
                 RunResult& run, bool check_output) {
  OpenedDevice opened = open_backend(backend, flags.common.device);
  if (run.fingerprint.machine_id.empty()) {
    run.fingerprint = opened.device ? opened.device->fingerprint() : Fingerprint{};
    if (!opened.device) run.fingerprint.backend = std::string(to_string(backend));
  }
  if (!opened.device) {
    for (const auto& spec : cases) {
      CaseResult r;
      r.id = spec.id;
      r.kernel = spec.kernel->name();
      r.backend = std::string(to_string(backend));
      r.params = spec.params;
      r.verdict = Verdict::skipped;
      r.message = "no " + std::string(to_string(backend)) + " device: " + opened.missing_reason;
      run.cases.push_back(std::move(r));
    }
    return;
  }
  Device& device = *opened.device;
  const ThresholdSet thresholds = ThresholdSet::load(flags.common.thresholds_dir);
  const BaselineStore baselines(flags.common.baselines_dir);
  const Peaks peaks = device_peaks(device, flags.common.cache_path());
  Gate gate(device, thresholds, flags.no_judge ? nullptr : &baselines, peaks,
            flags.common.input_seed());
  Progress progress(!flags.common.quiet && !check_output);
  std::optional<EventStream> events;
  if (!flags.events_file.empty()) events.emplace(flags.events_file);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    progress.show(i, cases.size(), cases[i].id);
    run.cases.push_back(gate.run(cases[i]));
    if (events) events->write_case(run, run.cases.back(), device.limits());
  }
}

// One results file per checked case, named after it: the CTest summary test merges the folder.
void write_case_results(const std::string& dir, const RunResult& run) {
  for (const auto& c : run.cases) {
    RunResult one = run;
    one.cases = {c};
    std::string name = c.id;
    for (char& ch : name)
      if (ch == '/' || ch == ',' || ch == '=') ch = '_';
    write_results(std::filesystem::path(dir) / (name + ".json"), one);
  }
}

int finish(const RunFlags& flags, RunResult& run, bool check_output) {
  if (!flags.common.json_file.empty()) write_results(flags.common.json_file, run);
  if (!flags.results_dir.empty()) write_case_results(flags.results_dir, run);
  int code = 0;
  int worst = 1 << 30;
  for (const auto& r : run.cases) {
    if (check_output) {
      print_check_details(r);
      print_ctest_measurements(r);
    }
    if (severity(r.verdict) < worst) {
      worst = severity(r.verdict);
      code = exit_code(r.verdict, flags.require_baseline);
    }
  }
  if (!check_output) {
    TableStyle style{flags.common.use_color()};
    std::fputs(render_table(run, style).c_str(), stdout);
    std::fputs(render_details(run, style).c_str(), stdout);
    const std::string breakdowns = render_breakdowns(run);
    if (!breakdowns.empty()) std::printf("\n%s", breakdowns.c_str());
  }
  // A run (not a check) with cases that merely lack a baseline or a device is not a failure.
  if (!check_output && code == 77) code = 0;
  return run.cases.empty() ? 0 : code;
}

std::map<Backend, std::vector<CaseSpec>> by_backend(const std::vector<CaseSpec>& cases) {
  std::map<Backend, std::vector<CaseSpec>> groups;
  for (const auto& c : cases) groups[c.backend].push_back(c);
  return groups;
}

int run_main(const RunFlags& flags) {
  Backend backend = flags.common.backend.empty() ? best_backend(flags.common.device)
                                                 : backend_from_string(flags.common.backend);
  Selection selection = flags.common.selection({backend});
  selection.default_suite_only = true;
  const auto cases = select_cases(selection);
  RunResult run = new_run({}, flags.project_dir);
  run_backend(flags, backend, cases, run, false);
  return finish(flags, run, false);
}

int check_main(const RunFlags& flags) {
  if (flags.common.cases.empty() && flags.common.kernel_glob.empty())
    throw Error("check: name the cases to check (perfgate list shows them)");
  std::vector<CaseSpec> cases;
  std::vector<std::string> globs;
  for (const auto& arg : flags.common.cases) {
    if (arg.find_first_of("*?[") == std::string::npos && arg.find('/') != std::string::npos)
      cases.push_back(parse_case_id(arg));
    else
      globs.push_back(arg);
  }
  if (!globs.empty() || cases.empty()) {
    CommonOptions narrowed = flags.common;
    narrowed.cases = globs;
    std::vector<Backend> backends;
    if (!flags.common.backend.empty()) backends.push_back(backend_from_string(flags.common.backend));
    for (auto& c : select_cases(narrowed.selection(backends))) cases.push_back(std::move(c));
  }
  RunResult run = new_run({}, flags.project_dir);
  if (!flags.base.empty()) {
    const ThresholdSet thresholds = ThresholdSet::load(flags.common.thresholds_dir);
    const AbSettings settings{resolve_base_binary(flags.base, std::filesystem::read_symlink("/proc/self/exe").filename()),
                              flags.common.device, flags.common.seed};
    for (const auto& spec : cases) {
      run.cases.push_back(ab_check(spec, settings, thresholds));
      if (run.fingerprint.machine_id.empty() && run.cases.back().ab) run.fingerprint = run.cases.back().ab->head.fingerprint;
    }
    return finish(flags, run, true);
  }
  for (const auto& [backend, group] : by_backend(cases)) run_backend(flags, backend, group, run, true);
  return finish(flags, run, true);
}

}  // namespace

void add_run_command(CLI::App& app, Context& context) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* run = app.add_subcommand("run", "Run the default suite on the best device here and print a table (the default command)");
  flags->project_dir = context.project_dir;
  add_selection_options(*run, flags->common);
  add_run_options(*run, flags->common, context);
  run->add_flag("--no-judge", flags->no_judge, "Measure only; do not compare with baselines");
  run->add_option("--events", flags->events_file,
                  "Append one JSON line per dispatch (geometry, GPU ns, host encode ns) and per case to FILE");
  run->callback([flags, &context] { context.exit_code = run_main(*flags); });

  auto check_flags = std::make_shared<RunFlags>();
  CLI::App* check = app.add_subcommand("check", "Measure cases and judge them against their baselines (what each CTest test runs)");
  check_flags->project_dir = context.project_dir;
  add_selection_options(*check, check_flags->common);
  add_run_options(*check, check_flags->common, context);
  check->add_option("--results-dir", check_flags->results_dir, "Also write each case's results to DIR/<case>.json (merged by report/notify DIR)");
  check->add_option("--events", check_flags->events_file,
                    "Append one JSON line per dispatch (geometry, GPU ns, host encode ns) and per case to FILE");
  check->add_option("--base", check_flags->base,
                    "A/B: measure against this base build (its perfgate binary or build folder) at the same "
                    "moment instead of the stored baseline (default: $PERFGATE_BASE)");
  check->add_flag("--require-baseline", check_flags->require_baseline, "A missing baseline fails (exit 1) instead of skipping (77)");
  check->callback([check_flags, &context] {
    // The one place PERFGATE_BASE is read: `ctest -L perf` in a pull request gates head against
    // base with no CMake change. An explicit --base wins.
    if (const char* base = std::getenv("PERFGATE_BASE"); check_flags->base.empty() && base && *base)
      check_flags->base = base;
    context.exit_code = check_main(*check_flags);
  });
}

}  // namespace perfgate::cli
