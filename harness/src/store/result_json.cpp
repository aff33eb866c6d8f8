#include "store/result_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>

#include "core/atomic_file.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "store/ab_json.h"
#include "store/sample_limits.h"

namespace perfgate {
namespace {

// Samples no measurement gives (store/sample_limits.h) refuse the file.
void check_samples(const std::string& case_id, const std::string& metric,
                   const std::vector<double>& samples) {
  for (double v : samples)
    if (auto why = implausible_value(metric, v)) throw Error("case " + case_id + ": " + *why);
}

using nlohmann::json;

json to_json(const Summary& s) {
  return {{"count", s.count},   {"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"median", s.median},
          {"stddev", s.stddev}, {"cv", s.cv},   {"mad", s.mad}, {"p5", s.p5},     {"p95", s.p95}};
}

Summary summary_from_json(const json& j) {
  Summary s;
  s.count = j.at("count").get<std::size_t>();
  s.min = j.at("min");
  s.max = j.at("max");
  s.mean = j.at("mean");
  s.median = j.at("median");
  s.stddev = j.at("stddev");
  s.cv = j.at("cv");
  s.mad = j.at("mad");
  s.p5 = j.at("p5");
  s.p95 = j.at("p95");
  return s;
}

json params_to_json(const Params& params) {
  json j = json::array();
  for (const auto& [name, value] : params.values()) j.push_back({{"name", name}, {"value", value}});
  return j;
}

Params params_from_json(const json& j) {
  std::vector<std::pair<std::string, std::int64_t>> values;
  for (const auto& entry : j) values.emplace_back(entry.at("name"), entry.at("value"));
  return Params(std::move(values));
}

}  // namespace

json to_json(const Fingerprint& f) {
  return {
      {"machine_id", f.machine_id},   {"backend", f.backend},         {"device_name", f.device_name},
      {"vendor_id", f.vendor_id},     {"device_id", f.device_id},     {"driver_version", f.driver_version},
      {"api_version", f.api_version}, {"device_uuid", f.device_uuid}, {"host_id", f.host_id},
      {"cpu_model", f.cpu_model},     {"cpu_threads", f.cpu_threads}, {"compiler", f.compiler},
      {"build_type", f.build_type},   {"build_flags", f.build_flags}};
}

Fingerprint fingerprint_from_json(const json& j) {
  Fingerprint f;
  f.machine_id = j.at("machine_id");
  f.backend = j.value("backend", "");
  f.device_name = j.value("device_name", "");
  f.vendor_id = j.value("vendor_id", 0u);
  f.device_id = j.value("device_id", 0u);
  f.driver_version = j.value("driver_version", "");
  f.api_version = j.value("api_version", "");
  f.device_uuid = j.value("device_uuid", "");
  f.host_id = j.value("host_id", "");
  f.cpu_model = j.value("cpu_model", "");
  f.cpu_threads = j.value("cpu_threads", 0);
  f.compiler = j.value("compiler", "");
  f.build_type = j.value("build_type", "");
  f.build_flags = j.value("build_flags", "");
  return f;
}

json to_json(const CaseResult& r) {
  json metrics = json::object();
  for (const auto& [name, metric] : r.metrics)
    metrics[name] = {{"samples", metric.samples}, {"summary", to_json(metric.summary)}};
  json judgements = json::array();
  for (const auto& j : r.judgements)
    judgements.push_back({{"metric", j.metric},
                          {"baseline_median", j.baseline_median},
                          {"current_median", j.current_median},
                          {"change_pct", j.change_pct},
                          {"threshold_pct", j.threshold_pct},
                          {"threshold_source", j.threshold_source},
                          {"level_source", j.level_source},
                          {"level_bound_pct", j.level_bound_pct},
                          {"level_offset_pct", j.level_offset_pct},
                          {"named", j.named},
                          {"floor", j.floor},
                          {"noise_pct", j.noise_pct},
                          {"baseline_runs", j.baseline_runs},
                          {"unstable", j.unstable},
                          {"too_busy", j.too_busy},
                          {"noise_note", j.noise_note},
                          {"p_value", j.p_value},
                          {"verdict", to_string(j.verdict)},
                          {"reason", j.reason}});
  json stages = json::array();
  for (const auto& s : r.stages) {
    json stage = {{"name", s.name}, {"latency_ns", s.latency_ns}, {"pct_of_total", s.pct_of_total}};
    if (!s.bound.empty())
      stage.update({{"bound", s.bound}, {"bound_reason", s.bound_reason}, {"pct_of_peak", s.pct_of_peak}});
    stages.push_back(std::move(stage));
  }
  json out = {{"id", r.id},
              {"kernel", r.kernel},
              {"backend", r.backend},
              {"params", params_to_json(r.params)},
              {"cost",
               {{"bytes_read", r.cost.bytes_read},
                {"bytes_written", r.cost.bytes_written},
                {"flops", r.cost.flops},
                {"matrix_flops", r.cost.matrix_flops}}},
              {"source_hash", r.source_hash},
              {"verdict", to_string(r.verdict)},
              {"message", r.message},
              {"check", r.check},
              {"metrics", metrics},
              {"judgements", judgements},
              {"stages", stages},
              {"bound", r.bound},
              {"bound_reason", r.bound_reason},
              {"arithmetic_intensity", r.arithmetic_intensity},
              {"fits_in_cache", r.fits_in_cache},
              {"measurements", r.measurements},
              {"peak_bandwidth_gbps", r.peak_bandwidth_gbps},
              {"peaks",
               {{"bandwidth_gbps", r.peaks.bandwidth_gbps},
                {"cache_bandwidth_gbps", r.peaks.cache_bandwidth_gbps},
                {"cache_bytes", r.peaks.cache_bytes},
                {"gflops", r.peaks.gflops},
                {"tensor_gflops", r.peaks.tensor_gflops}}}};
  if (r.encode_ns > 0) out["encode_ns"] = r.encode_ns;
  if (r.cpu_wait_share > 0) out["cpu_wait_share"] = r.cpu_wait_share;
  if (!r.device_uuid.empty()) out["device_uuid"] = r.device_uuid;
  if (!r.gpu_slot.empty()) out["gpu_slot"] = r.gpu_slot;
  if (r.first_verdict) {
    json confirmations = json::array();
    for (const auto& c : r.confirmations)
      confirmations.push_back(
          {{"verdict", to_string(c.verdict)}, {"metric", c.metric}, {"change_pct", c.change_pct}});
    out["first_verdict"] = to_string(*r.first_verdict);
    out["confirmations"] = confirmations;
  }
  if (r.throttled_samples > 0) out["throttled_samples"] = r.throttled_samples;
  if (!r.calibration_reference.empty()) out["calibration_reference"] = r.calibration_reference;
  if (!r.baseline_origin.empty()) out["baseline_origin"] = r.baseline_origin;
  if (r.ab) out["ab"] = to_json(*r.ab);
  return out;
}

CaseResult case_from_json(const json& j) {
  CaseResult r;
  r.id = j.at("id");
  r.kernel = j.at("kernel");
  r.backend = j.at("backend");
  r.params = params_from_json(j.at("params"));
  const json& cost = j.at("cost");
  r.cost = {cost.at("bytes_read"), cost.at("bytes_written"), cost.at("flops"),
            cost.value("matrix_flops", false)};
  r.source_hash = j.value("source_hash", "");
  r.verdict = verdict_from_string(j.at("verdict").get<std::string>());
  r.message = j.value("message", "");
  r.check = j.value("check", "");
  for (const auto& [name, metric] : j.at("metrics").items()) {
    r.metrics[name] = {metric.at("samples").get<std::vector<double>>(),
                       summary_from_json(metric.at("summary"))};
    check_samples(r.id, name, r.metrics[name].samples);
  }
  for (const auto& jj : j.value("judgements", json::array())) {
    Judgement g;
    g.metric = jj.at("metric");
    g.baseline_median = jj.at("baseline_median");
    g.current_median = jj.at("current_median");
    g.change_pct = jj.at("change_pct");
    g.threshold_pct = jj.at("threshold_pct");
    g.threshold_source = jj.value("threshold_source", "");
    g.level_source = jj.value("level_source", "");
    g.level_bound_pct = jj.value("level_bound_pct", 0.0);
    g.level_offset_pct = jj.value("level_offset_pct", 0.0);
    g.named = jj.value("named", false);
    g.floor = jj.value("floor", 0.0);
    g.noise_pct = jj.value("noise_pct", 0.0);
    g.baseline_runs = jj.value("baseline_runs", 0);
    g.unstable = jj.value("unstable", false);
    g.too_busy = jj.value("too_busy", false);
    g.noise_note = jj.value("noise_note", "");
    g.p_value = jj.at("p_value");
    g.verdict = verdict_from_string(jj.at("verdict").get<std::string>());
    g.reason = jj.value("reason", "");
    r.judgements.push_back(std::move(g));
  }
  for (const auto& s : j.value("stages", json::array()))
    r.stages.push_back({s.at("name"), s.at("latency_ns"), s.at("pct_of_total"), s.value("bound", ""),
                        s.value("bound_reason", ""), s.value("pct_of_peak", 0.0)});
  r.bound = j.value("bound", "");
  r.bound_reason = j.value("bound_reason", "");
  r.arithmetic_intensity = j.value("arithmetic_intensity", 0.0);
  r.fits_in_cache = j.value("fits_in_cache", false);
  r.measurements = j.value("measurements", 1);
  r.peak_bandwidth_gbps = j.value("peak_bandwidth_gbps", 0.0);
  if (const json peaks = j.value("peaks", json::object()); peaks.is_object()) {
    r.peaks.bandwidth_gbps = peaks.value("bandwidth_gbps", 0.0);
    r.peaks.cache_bandwidth_gbps = peaks.value("cache_bandwidth_gbps", 0.0);
    r.peaks.cache_bytes = peaks.value("cache_bytes", 0.0);
    r.peaks.gflops = peaks.value("gflops", 0.0);
    r.peaks.tensor_gflops = peaks.value("tensor_gflops", 0.0);
  }
  if (r.peaks.bandwidth_gbps == 0)
    r.peaks.bandwidth_gbps = r.peak_bandwidth_gbps;  // results before cache ceilings
  r.encode_ns = j.value("encode_ns", 0.0);
  r.cpu_wait_share = j.value("cpu_wait_share", 0.0);
  r.device_uuid = j.value("device_uuid", "");
  r.gpu_slot = j.value("gpu_slot", "");
  if (j.contains("first_verdict")) {
    r.first_verdict = verdict_from_string(j.at("first_verdict").get<std::string>());
    for (const auto& c : j.value("confirmations", json::array()))
      r.confirmations.push_back({verdict_from_string(c.at("verdict").get<std::string>()),
                                 c.value("metric", ""), c.value("change_pct", 0.0)});
  }
  r.throttled_samples = j.value("throttled_samples", 0);
  r.calibration_reference = j.value("calibration_reference", "");
  r.baseline_origin = j.value("baseline_origin", "");
  if (j.contains("ab")) r.ab = ab_from_json(j.at("ab"));
  return r;
}

json to_json(const RunResult& run) {
  // JSON has no infinity: nlohmann would write null, which no reader takes back.
  for (const auto& c : run.cases)
    for (const auto& j : c.judgements)
      for (double v :
           {j.baseline_median, j.current_median, j.change_pct, j.threshold_pct, j.floor, j.p_value,
            j.level_bound_pct, j.level_offset_pct})
        if (!std::isfinite(v))
          throw Error("case " + c.id + ": " + j.metric + " judged from a value that is not a finite number");
  json cases = json::array();
  for (const auto& c : run.cases) cases.push_back(to_json(c));
  return {{"schema", run.schema},
          {"perfgate_version", run.perfgate_version},
          {"run_id", run.run_id},
          {"started_at", run.started_at},
          {"commit", run.commit},
          {"branch", run.branch},
          {"fingerprint", to_json(run.fingerprint)},
          {"cases", cases}};
}

RunResult run_from_json(const json& j) {
  RunResult run;
  run.schema = j.at("schema");
  if (run.schema != 1) throw Error("unsupported results schema " + std::to_string(run.schema));
  run.perfgate_version = j.value("perfgate_version", "");
  run.run_id = j.at("run_id");
  run.started_at = j.value("started_at", "");
  run.commit = j.value("commit", "");
  run.branch = j.value("branch", "");
  run.fingerprint = fingerprint_from_json(j.at("fingerprint"));
  for (const auto& c : j.at("cases")) run.cases.push_back(case_from_json(c));
  return run;
}

static RunResult read_results_dir(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  if (files.empty()) throw Error(dir.string() + ": no results files (*.json) in this folder");
  std::sort(files.begin(), files.end());
  RunResult merged;
  std::string ids;
  for (const auto& f : files) {
    RunResult part = read_results(f);
    if (merged.run_id.empty()) merged = part, merged.cases.clear();
    ids += part.run_id;
    for (auto& c : part.cases) merged.cases.push_back(std::move(c));
  }
  char hash[24];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(ids));
  merged.run_id = merged.started_at + "-merged-" + hash;
  return merged;
}

RunResult read_results(const std::filesystem::path& file) {
  if (std::filesystem::is_directory(file)) return read_results_dir(file);
  return read_results(file, read_json_file(file));
}

RunResult read_results(const std::filesystem::path& file, const json& document) {
  try {
    return run_from_json(document);
  } catch (const json::exception& e) {
    throw Error(file.string() + ": not a perfgate results file: " + e.what());
  } catch (const Error& e) {
    throw Error(file.string() + ": " + e.what());
  }
}

json read_json_file(const std::filesystem::path& file) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(file, ec);
  if (!ec && bytes > kMaxResultsFileBytes)
    throw Error(file.string() + ": " + std::to_string(bytes >> 20) + " MiB, over the " +
                std::to_string(kMaxResultsFileBytes >> 20) +
                " MiB a results file may have (parsed, it would take gigabytes); nothing read: split the run");
  std::ifstream in(file);
  if (!in) throw Error(file.string() + ": cannot open results file");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw Error(file.string() + ": not JSON: " + e.what());
  }
}

void write_results(const std::filesystem::path& file, const RunResult& run) {
  write_file_atomically(file, to_json(run).dump(2) + "\n");
}

}  // namespace perfgate
