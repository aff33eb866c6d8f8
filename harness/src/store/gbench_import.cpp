#include "store/gbench_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>

#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

using nlohmann::json;

double to_ns(double value, const std::string& unit) {
  if (unit == "ns") return value;
  if (unit == "us") return value * 1e3;
  if (unit == "ms") return value * 1e6;
  if (unit == "s") return value * 1e9;
  throw Error("unknown time_unit '" + unit + "'");
}

// Bytes and flops per iteration recovered from rates: integral counts come back exactly.
double per_iteration(double rate, double ns) {
  const double value = rate * ns * 1e-9;
  const double whole = std::round(value);
  return std::abs(value - whole) <= 1e-6 * std::max(1.0, std::abs(value)) ? whole : value;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

std::optional<std::int64_t> integer(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  try {
    const long long value = std::stoll(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The kernel, backend and parameters a run name stands for (see the header).
void name_case(CaseResult& c) {
  const std::vector<std::string> parts = split(c.id, '/');
  c.kernel = parts[0];
  c.backend = "cpu";
  std::vector<std::pair<std::string, std::int64_t>> params;
  if (parts.size() == 3 && (parts[1] == "cpu" || parts[1] == "vulkan")) {
    c.backend = parts[1];
    for (const std::string& p : split(parts[2], ',')) {
      const auto eq = p.find('=');
      const auto value = eq == std::string::npos ? std::nullopt : integer(p.substr(eq + 1));
      if (value) params.emplace_back(p.substr(0, eq), *value);
    }
    c.params = Params(std::move(params));
    return;
  }
  // Google Benchmark's own options in a name are not parameters of the computation.
  static const char* const run_options[] = {"min_time", "min_warmup_time", "repeats", "iterations"};
  int arg = 0;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto colon = parts[i].find(':');
    if (colon == std::string::npos) {
      if (auto value = integer(parts[i])) params.emplace_back(fmt::format("arg{}", arg++), *value);
      continue;
    }
    const std::string name = parts[i].substr(0, colon);
    if (std::find(std::begin(run_options), std::end(run_options), name) != std::end(run_options)) continue;
    if (auto value = integer(parts[i].substr(colon + 1))) params.emplace_back(name, *value);
  }
  c.params = Params(std::move(params));
}

struct Family {
  CaseResult result;
  std::vector<double> samples_ns;
  std::vector<double> relative;            // perfgate's own export of a calibrated case: what it judged
  std::map<std::string, json> aggregates;  // aggregate name -> its run
  std::vector<double> bytes, flops;        // per iteration, from the rates
};

// Google Benchmark divides rate counters by the CPU time, unless the benchmark measured real or
// manual time (UseRealTime, UseManualTime), which adds "/real_time" or "/manual_time" to its name.
double rate_time_ns(const json& b) {
  if (b.value("perfgate_metric", "") == metric::relative_latency && b.contains("latency_ns"))
    return b["latency_ns"].get<double>();  // perfgate's export of a calibrated case
  const std::vector<std::string> segments = split(b.value("run_name", b.value("name", "")), '/');
  const bool real = std::any_of(segments.begin(), segments.end(),
                                [](const std::string& s) { return s == "real_time" || s == "manual_time"; });
  return to_ns(b.at(real ? "real_time" : "cpu_time").get<double>(), b.value("time_unit", "ns"));
}

void record_rates(Family& f, const json& b) {
  if (!b.contains("bytes_per_second") && !b.contains("FLOPS")) return;
  const double ns = rate_time_ns(b);
  if (b.contains("bytes_per_second"))
    f.bytes.push_back(per_iteration(b["bytes_per_second"].get<double>(), ns));
  if (b.contains("FLOPS")) f.flops.push_back(per_iteration(b["FLOPS"].get<double>(), ns));
}

CaseResult finish(Family& f) {
  CaseResult& c = f.result;
  if (c.verdict == Verdict::error) return c;
  if (f.samples_ns.empty()) {  // aggregates-only output
    for (const char* name : {"median", "mean"})
      if (auto it = f.aggregates.find(name); it != f.aggregates.end()) {
        const json& b = it->second;
        f.samples_ns.push_back(to_ns(b.at("real_time").get<double>(), b.value("time_unit", "ns")));
        record_rates(f, b);
        break;
      }
  }
  if (f.samples_ns.empty()) {
    c.verdict = Verdict::error;
    c.message = "no iteration runs and no mean or median aggregate in the Google Benchmark JSON";
    return c;
  }
  c.cost.bytes_read = f.bytes.empty() ? 0 : median(f.bytes);
  c.cost.flops = f.flops.empty() ? 0 : median(f.flops);
  c.metrics[metric::latency_ns] = make_metric(f.samples_ns);
  if (!f.relative.empty()) c.metrics[metric::relative_latency] = make_metric(f.relative);
  if (c.cost.bytes() > 0)
    c.metrics[metric::bandwidth_gbps] = make_metric(rate_per_ns(f.samples_ns, c.cost.bytes()));
  if (c.cost.flops > 0) c.metrics[metric::gflops] = make_metric(rate_per_ns(f.samples_ns, c.cost.flops));
  c.arithmetic_intensity = c.cost.bytes() > 0 ? c.cost.flops / c.cost.bytes() : 0;
  c.message = fmt::format("imported from Google Benchmark JSON ({} samples)", f.samples_ns.size());
  return c;
}

std::string slug(const std::string& text) {
  std::string out;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c))
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

void read_context(RunResult& run, const json& context, const json& document) {
  if (context.contains("perfgate")) {  // written by to_gbench_json: the run's own identity
    const json& p = context["perfgate"];
    run.fingerprint = fingerprint_from_json(p.at("fingerprint"));
    run.run_id = p.value("run_id", "");
    run.commit = p.value("commit", "");
    run.branch = p.value("branch", "");
    run.perfgate_version = p.value("perfgate_version", "");
    run.started_at = context.value("date", "");
    return;
  }
  // Google Benchmark ran on a CPU: classified as perfgate's CPU machines are (cpu-<host>-<N>t),
  // so the thresholds' "cpu-*" rules apply to it.
  const std::string host = context.value("host_name", "");
  const int threads = context.value("num_cpus", 0);
  run.fingerprint.machine_id = "cpu-" + (host.empty() ? std::string("gbench") : slug(host)) +
                               (threads > 0 ? "-" + std::to_string(threads) + "t" : "");
  run.fingerprint.backend = "cpu";
  run.fingerprint.device_name = host;
  run.fingerprint.cpu_threads = context.value("num_cpus", 0);
  run.fingerprint.build_type = context.value("library_build_type", "");
  run.started_at = context.value("date", "");
  // Stable per document, so appending the same file to the history twice keeps one entry.
  run.run_id = fmt::format("gbench-{:016x}", std::hash<std::string>{}(document.dump()));
}

}  // namespace

bool is_gbench_json(const json& j) {
  return j.is_object() && j.contains("benchmarks") && j["benchmarks"].is_array() && !j.contains("cases");
}

RunResult run_from_gbench_json(const json& document) {
  if (!is_gbench_json(document)) throw Error("not Google Benchmark JSON: no \"benchmarks\" array");
  RunResult run;
  try {
    read_context(run, document.value("context", json::object()), document);
    std::vector<Family> families;
    std::map<std::string, std::size_t> index;
    for (const json& b : document["benchmarks"]) {
      const std::string name = b.value("run_name", b.at("name").get<std::string>());
      auto [it, fresh] = index.emplace(name, families.size());
      if (fresh) {
        families.emplace_back();
        families.back().result.id = name;
        families.back().result.verdict = Verdict::no_baseline;
        name_case(families.back().result);
      }
      Family& f = families[it->second];
      if (b.value("error_occurred", false)) {
        f.result.verdict = Verdict::error;
        f.result.message = b.value("error_message", "error reported by the benchmark");
        continue;
      }
      if (b.value("run_type", "iteration") == "aggregate") {
        f.aggregates[b.value("aggregate_name", "")] = b;
        continue;
      }
      // perfgate's export of a calibrated case: real_time is its relative latency, the raw time
      // in latency_ns (report/gbench_json.h).
      if (b.value("perfgate_metric", "") == metric::relative_latency && b.contains("latency_ns")) {
        f.relative.push_back(b.at("real_time").get<double>());
        f.samples_ns.push_back(b["latency_ns"].get<double>());
        record_rates(f, b);
        continue;
      }
      const double ns = to_ns(b.at("real_time").get<double>(), b.value("time_unit", "ns"));
      f.samples_ns.push_back(ns);
      record_rates(f, b);
    }
    for (Family& f : families) run.cases.push_back(finish(f));
  } catch (const json::exception& e) {
    throw Error(std::string("malformed Google Benchmark JSON: ") + e.what());
  }
  return run;
}

RunResult read_results_or_gbench(const std::filesystem::path& file) {
  if (std::filesystem::is_directory(file)) return read_results(file);
  const json document = read_json_file(file);
  if (!is_gbench_json(document)) return read_results(file, document);
  try {
    return run_from_gbench_json(document);
  } catch (const Error& e) {
    throw Error(file.string() + ": " + e.what());
  }
}

}  // namespace perfgate
