#include "report/breakdown.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.h"
#include "measure/bound.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "perfgate/registry.h"
#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

// The case's ceilings, for results written before they were stored per case: the bandwidth
// the case was judged against, and the run's fma_peak GFLOP/s.
Peaks ceilings_of(const CaseResult& result, double peak_gflops) {
  Peaks peaks = result.peaks;
  if (peaks.bandwidth_gbps == 0) peaks.bandwidth_gbps = result.peak_bandwidth_gbps;
  if (peaks.gflops == 0) peaks.gflops = peak_gflops;
  return peaks;
}

}  // namespace

StageCosts stage_costs_from_registry(const CaseResult& result) {
  StageCosts costs;
  const auto underscore = result.kernel.rfind('_');
  const std::string family =
      result.kernel.substr(0, underscore == std::string::npos ? result.kernel.size() : underscore);
  for (const auto& stage : result.stages) {
    const KernelDef* kernel = find_kernel(family + "_" + stage.name);
    if (!kernel) continue;
    try {
      costs[stage.name] = kernel->cost_of(result.params);
    } catch (const Error&) {
      // The stage kernel needs an axis this case does not have: its cost stays unknown.
    }
  }
  return costs;
}

std::optional<Breakdown> breakdown_of(const CaseResult& result, const StageCosts& stage_costs,
                                      double peak_gflops) {
  if (result.stages.empty()) return std::nullopt;
  Breakdown b;
  b.case_id = result.id;
  for (const auto& s : result.stages) b.stages_ns += s.latency_ns;
  for (const auto& s : result.stages) {
    StageLoad load{s.name, s.latency_ns, s.pct_of_total, "", 0};
    if (load.pct_of_total == 0 && b.stages_ns > 0) load.pct_of_total = 100.0 * s.latency_ns / b.stages_ns;
    if (auto cost = stage_costs.find(s.name); cost != stage_costs.end() && s.latency_ns > 0) {
      // A stage's working set is not known apart: the bytes it moves stand for it.
      const Peaks peaks = ceilings_of(result, peak_gflops);
      const BoundCall call = classify_bound(cost->second, s.latency_ns,
                                            peaks.cache_bytes > 0 && cost->second.bytes() <= peaks.cache_bytes, peaks);
      load.bound = call.bound;
      load.reason = call.reason;
      load.pct_of_peak = call.pct_of_peak;
    }
    b.stages.push_back(std::move(load));
  }
  b.bottleneck = static_cast<std::size_t>(
      std::max_element(b.stages.begin(), b.stages.end(),
                       [](const StageLoad& x, const StageLoad& y) { return x.latency_ns < y.latency_ns; }) -
      b.stages.begin());

  const StageLoad& top = b.stages[b.bottleneck];
  b.bottleneck_reason = fmt::format("{}: {:.0f}% of time", top.name, top.pct_of_total);
  if (!top.bound.empty()) {
    b.bottleneck_reason += ", " + top.reason;
  } else if (!result.bound.empty()) {
    // Per-stage costs unknown: name the whole plan's bound instead, and say so.
    b.bottleneck_reason += fmt::format(
        " (largest of {} stages); the whole {} is {}", b.stages.size(),
        result.kernel.empty() ? "plan" : result.kernel,
        result.bound_reason.empty() ? result.bound + "-bound" : result.bound_reason);
  }

  const double gpu_ns = median_of(result, metric::latency_ns);
  const double host_ns = median_of(result, metric::host_latency_ns);
  if (gpu_ns > 0) b.gaps_ns = std::max(0.0, gpu_ns - b.stages_ns);
  if (gpu_ns > 0 && host_ns > 0) {
    b.launch_overhead_ns = host_ns - gpu_ns;
    b.gpu_busy_fraction = gpu_ns / host_ns;
  }
  return b;
}

double peak_gflops_of(const RunResult& run) {
  double peak = 0;
  for (const auto& c : run.cases)
    if (c.kernel == "fma_peak") peak = std::max(peak, median_of(c, metric::gflops));
  return peak;
}

std::string describe_host_overhead(const Breakdown& b) {
  std::vector<std::string> parts;
  if (b.gaps_ns) parts.push_back(format_duration_ns(*b.gaps_ns) + " between dispatches");
  if (b.launch_overhead_ns) parts.push_back(format_duration_ns(*b.launch_overhead_ns) + " launch overhead");
  if (b.gpu_busy_fraction) parts.push_back(fmt::format("GPU busy {:.0f}%", 100.0 * *b.gpu_busy_fraction));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string render_breakdown(const Breakdown& b) {
  std::size_t name_width = 5;
  for (const auto& s : b.stages) name_width = std::max(name_width, s.name.size());
  std::string out = fmt::format("{}\n  {:<{}}  {:>10}  {:>6}  {}\n", b.case_id, "stage", name_width, "time",
                                "share", "bound");
  for (std::size_t i = 0; i < b.stages.size(); ++i) {
    const StageLoad& s = b.stages[i];
    // format_duration_ns uses µs (two bytes, one column): pad by display width.
    const std::string time = format_duration_ns(s.latency_ns);
    const std::size_t time_columns = time.find("µ") == std::string::npos ? time.size() : time.size() - 1;
    out += fmt::format("  {:<{}}  {}{}  {:>5.1f}%  {}{}\n", s.name, name_width,
                       std::string(10 - std::min<std::size_t>(10, time_columns), ' '), time, s.pct_of_total,
                       s.bound.empty() ? "-" : s.reason,
                       i == b.bottleneck ? "  <- bottleneck" : "");
  }
  out += "  bottleneck: " + b.bottleneck_reason + "\n";
  if (const std::string host = describe_host_overhead(b); !host.empty()) out += "  " + host + "\n";
  return out;
}

std::vector<Breakdown> breakdowns_of(const RunResult& run) {
  const double peak_gflops = peak_gflops_of(run);
  std::vector<Breakdown> out;
  for (const auto& c : run.cases)
    if (auto b = breakdown_of(c, stage_costs_from_registry(c), peak_gflops)) out.push_back(std::move(*b));
  return out;
}

std::string render_breakdowns(const RunResult& run) {
  std::string out;
  for (const Breakdown& b : breakdowns_of(run)) out += (out.empty() ? "" : "\n") + render_breakdown(b);
  return out;
}

}  // namespace perfgate
