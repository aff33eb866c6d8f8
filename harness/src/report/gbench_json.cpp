#include "report/gbench_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <span>

#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "stats/summary.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

using nlohmann::json;

// Google Benchmark writes "release" or "debug".
std::string library_build_type(const std::string& build_type) {
  std::string lower;
  for (char c : build_type) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "debug" ? "debug" : "release";
}

// Every case is exported as this many repetitions, whatever its sample count: compare.py pairs
// two runs repetition by repetition, and counts that differ between runs (200 against 21) made
// its OVERALL_GEOMEAN call a 2.3x slowdown "88% faster".
constexpr std::size_t kRepetitions = 20;

// kRepetitions values of the samples: where there are at least as many, the medians of
// kRepetitions consecutive blocks of them, in the order they were measured (a drift shows as
// one); else their (i + 0.5) / kRepetitions quantiles, linearly interpolated.
std::vector<double> fixed_repetitions(std::vector<double> samples) {
  const std::size_t count = samples.size();
  if (count >= kRepetitions) {
    std::vector<double> out;
    for (std::size_t i = 0; i < kRepetitions; ++i) {
      const std::size_t begin = i * count / kRepetitions, end = (i + 1) * count / kRepetitions;
      out.push_back(median(std::span<const double>(samples).subspan(begin, end - begin)));
    }
    return out;
  }
  std::sort(samples.begin(), samples.end());
  std::vector<double> out;
  for (std::size_t i = 0; i < kRepetitions; ++i) {
    const double at =
        (static_cast<double>(i) + 0.5) / kRepetitions * static_cast<double>(samples.size()) - 0.5;
    const double clamped = std::clamp(at, 0.0, static_cast<double>(samples.size() - 1));
    const auto low = static_cast<std::size_t>(std::floor(clamped));
    const std::size_t high = std::min(low + 1, samples.size() - 1);
    const double fraction = clamped - static_cast<double>(low);
    out.push_back(samples[low] + (samples[high] - samples[low]) * fraction);
  }
  return out;
}

std::vector<double> rates(const std::vector<double>& latency_ns, double per_iteration) {
  std::vector<double> out;
  for (double ns : latency_ns) out.push_back(ns > 0 ? per_iteration / (ns * 1e-9) : 0);
  return out;
}

json benchmark_run(const CaseResult& c, int family, const std::string& name, std::size_t repetitions) {
  return {{"name", name},
          {"family_index", family},
          {"per_family_instance_index", 0},
          {"run_name", c.id},
          {"repetitions", repetitions},
          {"threads", 1},
          {"time_unit", "ns"},
          {"label", std::string(to_string(c.verdict))}};
}

void append_case(json& benchmarks, const CaseResult& c, int family) {
  auto latency = c.metrics.find(metric::latency_ns);
  if (latency == c.metrics.end() || latency->second.samples.empty()) {
    json run = benchmark_run(c, family, c.id, 1);
    run.update({{"run_type", "iteration"},
                {"repetition_index", 0},
                {"iterations", 0},
                {"real_time", 0.0},
                {"cpu_time", 0.0},
                {"error_occurred", true},
                {"error_message", c.message.empty() ? std::string(to_string(c.verdict)) : c.message}});
    benchmarks.push_back(std::move(run));
    return;
  }
  const std::vector<double>& samples_ns = latency->second.samples;
  // A calibrated case exports what the gate judged: its time relative to the reference workload
  // measured beside it, which a busy machine moves far less than the raw time (compare.py called
  // two runs the gate passed +50% and +84% slower on the raw time). Its raw time per iteration
  // stays in the counter latency_ns.
  const auto relative = c.metrics.find(metric::relative_latency);
  const bool calibrated = relative != c.metrics.end() && relative->second.samples.size() == samples_ns.size();
  const std::vector<double>& judged = calibrated ? relative->second.samples : samples_ns;
  // cpu_time: the host's wall time per dispatch when it was recorded (GPU cases), else real time.
  std::vector<double> host_ns = samples_ns;
  if (auto host = c.metrics.find(metric::host_latency_ns);
      host != c.metrics.end() && host->second.samples.size() == samples_ns.size())
    host_ns = host->second.samples;
  const std::vector<double> raw_ns = fixed_repetitions(samples_ns), real = fixed_repetitions(judged),
                            cpu = calibrated ? real : fixed_repetitions(host_ns);
  const double bytes = c.cost.bytes();
  const std::vector<double> bytes_rate = rates(raw_ns, bytes), flops_rate = rates(raw_ns, c.cost.flops);
  const std::size_t n = real.size();
  for (std::size_t i = 0; i < n; ++i) {
    json run = benchmark_run(c, family, c.id, n);
    run.update({{"run_type", "iteration"},
                {"repetition_index", i},
                {"iterations", 1},
                {"real_time", real[i]},
                {"cpu_time", cpu[i]}});
    if (calibrated) run.update({{"perfgate_metric", metric::relative_latency}, {"latency_ns", raw_ns[i]}});
    if (bytes > 0) run["bytes_per_second"] = bytes_rate[i];
    if (c.cost.flops > 0) run["FLOPS"] = flops_rate[i];
    benchmarks.push_back(std::move(run));
  }
  // The aggregates are the samples' own, not the repetitions'.
  const Summary real_summary = summarize(judged), cpu_summary = summarize(calibrated ? judged : host_ns),
                bps = summarize(rates(samples_ns, bytes)), fps = summarize(rates(samples_ns, c.cost.flops));
  const std::pair<const char*, double Summary::*> aggregates[] = {
      {"mean", &Summary::mean}, {"median", &Summary::median}, {"stddev", &Summary::stddev}};
  for (const auto& [aggregate, field] : aggregates) {
    json run = benchmark_run(c, family, c.id + "_" + aggregate, n);
    run.update({{"run_type", "aggregate"},
                {"aggregate_name", aggregate},
                {"aggregate_unit", "time"},
                {"iterations", n},
                {"real_time", real_summary.*field},
                {"cpu_time", cpu_summary.*field}});
    if (calibrated) run["perfgate_metric"] = metric::relative_latency;
    if (bytes > 0) run["bytes_per_second"] = bps.*field;
    if (c.cost.flops > 0) run["FLOPS"] = fps.*field;
    benchmarks.push_back(std::move(run));
  }
}

}  // namespace

json to_gbench_json(const RunResult& run) {
  const Fingerprint& f = run.fingerprint;
  json context = {{"date", run.started_at},
                  {"host_name", f.machine_id},
                  {"executable", "perfgate"},
                  {"num_cpus", f.cpu_threads},
                  {"mhz_per_cpu", 0},
                  {"cpu_scaling_enabled", false},
                  {"caches", json::array()},
                  {"library_build_type", library_build_type(f.build_type)},
                  {"perfgate",
                   {{"run_id", run.run_id},
                    {"commit", run.commit},
                    {"branch", run.branch},
                    {"perfgate_version", run.perfgate_version},
                    {"fingerprint", to_json(f)}}}};
  json benchmarks = json::array();
  int family = 0;
  for (const auto& c : run.cases) append_case(benchmarks, c, family++);
  return {{"context", context}, {"benchmarks", benchmarks}};
}

}  // namespace perfgate
