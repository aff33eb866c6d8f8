#include "report/breakdown.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.h"
#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"

namespace perfgate {

std::optional<Breakdown> breakdown_of(const CaseResult& result) {
  if (result.stages.empty()) return std::nullopt;
  Breakdown b;
  b.case_id = result.id;
  for (const auto& s : result.stages) b.stages_ns += s.latency_ns;
  for (const auto& s : result.stages) {
    StageTiming stage = s;
    if (stage.pct_of_total == 0 && b.stages_ns > 0) stage.pct_of_total = 100.0 * s.latency_ns / b.stages_ns;
    b.stages.push_back(std::move(stage));
  }
  b.bottleneck = static_cast<std::size_t>(std::max_element(b.stages.begin(), b.stages.end(),
                                                           [](const StageTiming& x, const StageTiming& y) {
                                                             return x.latency_ns < y.latency_ns;
                                                           }) -
                                          b.stages.begin());

  const StageTiming& top = b.stages[b.bottleneck];
  b.bottleneck_reason = fmt::format("{}: {:.0f}% of time", top.name, top.pct_of_total);
  if (!top.bound.empty()) {
    b.bottleneck_reason += ", " + top.bound_reason;
  } else if (!result.bound.empty()) {
    // Per-stage costs unknown: name the whole plan's bound instead, and say so.
    b.bottleneck_reason +=
        fmt::format(" (largest of {} stages); the whole {} is {}", b.stages.size(),
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
    const StageTiming& s = b.stages[i];
    // format_duration_ns uses µs (two bytes, one column): pad by display width.
    const std::string time = format_duration_ns(s.latency_ns);
    const std::size_t time_columns = time.find("µ") == std::string::npos ? time.size() : time.size() - 1;
    out += fmt::format("  {:<{}}  {}{}  {:>5.1f}%  {}{}\n", s.name, name_width,
                       std::string(10 - std::min<std::size_t>(10, time_columns), ' '), time, s.pct_of_total,
                       s.bound.empty() ? "-" : s.bound_reason, i == b.bottleneck ? "  <- bottleneck" : "");
  }
  out += "  bottleneck: " + b.bottleneck_reason + "\n";
  if (const std::string host = describe_host_overhead(b); !host.empty()) out += "  " + host + "\n";
  return out;
}

std::vector<Breakdown> breakdowns_of(const RunResult& run) {
  std::vector<Breakdown> out;
  for (const auto& c : run.cases)
    if (auto b = breakdown_of(c)) out.push_back(std::move(*b));
  return out;
}

std::string render_breakdowns(const RunResult& run) {
  std::string out;
  for (const Breakdown& b : breakdowns_of(run)) out += (out.empty() ? "" : "\n") + render_breakdown(b);
  return out;
}

}  // namespace perfgate
