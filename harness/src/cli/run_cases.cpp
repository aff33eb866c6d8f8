#include "cli/run_cases.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>

#include "cli/ab_check.h"
#include "cli/fresh_measurement.h"
#include "cli/run_info.h"
#include "core/atomic_file.h"
#include "core/file_lock.h"
#include "core/path_within.h"
#include "core/terminal_text.h"
#include "gate/gate.h"
#include "gate/paired_measurement.h"
#include "gate/stored_measurement.h"
#include "judge/history_noise.h"
#include "judge/thresholds.h"
#include "measure/busy_peaks.h"
#include "measure/peaks.h"
#include "perfgate/run_summary.h"
#include "report/breakdown.h"
#include "report/check_lines.h"
#include "report/ctest_printer.h"
#include "report/event_stream.h"
#include "report/next_steps.h"
#include "report/table_printer.h"
#include "report/trace_printer.h"
#include "store/history.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

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

// The baselines folder as the commit names it: relative to the project where inside it (the
// committed "baselines"), else as given (--baselines, PERFGATE_BASELINES_DIR).
std::string shown_baselines_dir(const std::string& dir, const std::string& project_dir) {
  if (const auto inside = project_dir.empty() ? std::nullopt : path_within(dir, project_dir))
    return inside->generic_string();
  return std::filesystem::path(dir).lexically_normal().generic_string();
}

// The arguments that select and measure the same cases again, for the printed commands.
InvocationArgs invocation_args(const RunFlags& flags, const RunResult& run) {
  const CommonOptions& o = flags.common;
  InvocationArgs how;
  how.program = flags.program;
  how.selection = o.cases;
  for (const auto& glob : o.kernel_globs) how.selection.insert(how.selection.end(), {"--kernel", glob});
  const std::string backend = o.backend.empty() ? run.fingerprint.backend : o.backend;
  if (!backend.empty()) how.selection.insert(how.selection.end(), {"--backend", backend});
  for (const auto& axis : o.axes) how.selection.insert(how.selection.end(), {"--axis", axis});
  if (o.thresholds_dir != flags.default_thresholds_dir)
    how.measuring.insert(how.measuring.end(), {"--thresholds", o.thresholds_dir});
  if (!o.cache_dir.empty()) how.measuring.insert(how.measuring.end(), {"--cache-dir", o.cache_dir});
  if (!o.device.empty() && flags.gpu_slot.empty()) how.place.insert(how.place.end(), {"--device", o.device});
  if (o.baselines_dir != flags.default_baselines_dir)
    how.place.insert(how.place.end(), {"--baselines", o.baselines_dir});
  how.baselines_dir = shown_baselines_dir(o.baselines_dir, flags.project_dir);
  return how;
}

// Said once, last: how to start gating the cases that have no baseline on this machine.
void print_next_steps(const RunFlags& flags, const RunResult& run) {
  if (flags.no_judge || !flags.base.empty()) return;
  const bool has_baselines = std::filesystem::is_directory(
      BaselineStore(flags.common.baselines_dir).machine_dir(run.fingerprint.machine_id));
  std::fputs(render_next_steps(run, invocation_args(flags, run), has_baselines).c_str(), stdout);
}

}  // namespace

void set_context(RunFlags& flags, const Context& context) {
  flags.project_dir = context.project_dir;
  flags.program = context.program;
  flags.default_baselines_dir = context.baselines_dir();
  flags.default_thresholds_dir = context.thresholds_dir();
}

void run_backend(const RunFlags& flags, Backend backend, const std::vector<CaseSpec>& cases, RunResult& run,
                 bool check_output) {
  OpenedDevice opened = open_backend(backend, flags.common.device);
  if (run.fingerprint.machine_id.empty()) {
    run.fingerprint = opened.device ? opened.device->fingerprint() : Fingerprint{};
    if (!opened.device) run.fingerprint.backend = std::string(to_string(backend));
  }
  if (!opened.device) {
    for (const auto& spec : cases) {
      CaseResult r = result_for(spec);
      r.verdict = Verdict::skipped;
      r.message = "no " + std::string(to_string(backend)) + " device: " + opened.missing_reason;
      run.cases.push_back(std::move(r));
    }
    return;
  }
  Device& device = *opened.device;
  // Without a CTest resource allocation (RESOURCE_GROUPS are ignored then) two checks started at
  // once, by ctest -j N or by two jobs on one host, take turns on a GPU instead of measuring each
  // other. Under an allocation ctest already keeps one test per slot.
  std::optional<FileLock> device_lock;
  if (backend == Backend::vulkan && flags.gpu_slot.empty())
    device_lock.emplace(flags.common.cache_path() / ("device-" + device.fingerprint().device_uuid + ".lock"),
                        std::chrono::minutes(10));
  const ThresholdSet thresholds = ThresholdSet::load(flags.common.thresholds_dir);
  const BaselineStore baselines(flags.common.baselines_dir);
  // A baseline file that cannot be read is an error before anything is measured: the device's
  // peaks, where they are due, take seconds, and far more on a busy machine.
  if (!flags.no_judge) {
    std::set<std::string> kernels;
    for (const auto& spec : cases) kernels.insert(spec.kernel->name());
    for (const auto& kernel : kernels) baselines.load(device.fingerprint().machine_id, kernel);
  }
  // So is an --events file that cannot be appended to (a symbolic link is refused).
  std::optional<EventStream> events;
  if (!flags.events_file.empty()) events.emplace(flags.events_file);
  const DevicePeaks measured = device_peaks(device, flags.common.cache_path());
  // Once, on stderr (a check's stdout is what ctest reads): `% peak` rests on provisional ceilings.
  if (!measured.busy_why.empty())
    std::fprintf(stderr,
                 "perfgate: the %s ceilings were measured in a busy moment (%s): provisional, measured "
                 "again %.0f minutes after\n",
                 device.fingerprint().machine_id.c_str(), measured.busy_why.c_str(), kProvisionalPeaksS / 60);
  const Peaks& peaks = measured.peaks;
  StoredSource source(device, thresholds, flags.no_judge ? nullptr : &baselines, peaks);
  if (check_output) source.sample_for_verdicts();
  if (!flags.history_dir.empty() && !flags.no_judge)
    // A GPU is told by its uuid; a device on the host's cores (the CPU, llvmpipe) by its host.
    source.judge_with_history(history_noise(read_all_history(flags.history_dir, device.fingerprint().machine_id),
                                            thresholds, device.is_gpu() ? device.fingerprint().device_uuid : "",
                                            device.fingerprint().host_id));
  source.measure_fresh_with([&flags](const CaseSpec& spec, std::uint64_t seed, const SamplingSettings& sampling) {
    return measure_in_fresh_process(flags, spec, seed, sampling);
  });
  Gate gate(source, flags.common.input_seed());
  Progress progress(!flags.common.quiet && !check_output);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    progress.show(i, cases.size(), cases[i].id);
    run.cases.push_back(gate.run(cases[i]));
    run.cases.back().device_uuid = device.fingerprint().device_uuid;
    run.cases.back().gpu_slot = flags.gpu_slot;
    if (events) events->write_case(run, run.cases.back(), device.limits());
  }
}

void run_ab(const RunFlags& flags, const std::vector<CaseSpec>& cases, RunResult& run) {
  const ThresholdSet thresholds = ThresholdSet::load(flags.common.thresholds_dir);
  const AbSettings settings{
      resolve_base_binary(flags.base, std::filesystem::read_symlink("/proc/self/exe").filename()),
      flags.common.device};
  PairedSource source(thresholds, [&settings](const CaseSpec& spec, std::uint64_t seed) {
    return start_serve_pair(spec, settings, seed);
  });
  Gate gate(source, flags.common.input_seed());
  for (const auto& spec : cases) {
    run.cases.push_back(gate.run(spec));
    if (run.fingerprint.machine_id.empty() && run.cases.back().ab)
      run.fingerprint = run.cases.back().ab->head.fingerprint;
  }
}

int finish(const RunFlags& flags, RunResult& run, bool check_output) {
  if (!flags.common.json_file.empty()) write_results(flags.common.json_file, run);
  if (!flags.results_dir.empty()) write_case_results(flags.results_dir, run);
  if (!flags.trace_file.empty()) write_file_atomically(flags.trace_file, render_chrome_trace(run));
  if (check_output)
    for (const auto& r : run.cases) {
      std::fputs(terminal_text(render_check_lines(r)).c_str(), stdout);
      std::fputs(render_ctest_measurements(r).c_str(), stdout);
    }
  const RunSummary summary = summarize_run(run);
  const int code = check_output ? summary.exit_code(flags.require_baseline)
                                : summary.run_exit_code(flags.require_baseline);
  if (!check_output) {
    TableStyle style{flags.common.use_color()};
    std::fputs(render_table(run, style).c_str(), stdout);
    std::fputs(render_details(run, style).c_str(), stdout);
    const std::string breakdowns = render_breakdowns(run);
    if (!breakdowns.empty()) std::printf("\n%s", breakdowns.c_str());
  }
  print_next_steps(flags, run);
  return code;
}

}  // namespace perfgate
