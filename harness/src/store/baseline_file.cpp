#include "store/baseline_file.h"

#include <algorithm>

#include "perfgate/metric_names.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"
#include "store/measurement_yaml.h"
#include "store/yaml_document.h"

namespace perfgate {
namespace {

// Schema 2 added `run_counts`; schema 1 files (no counts) are still read when complete by the
// rules they were written under (check_schema1_complete).
constexpr int kBaselineSchema = 2;

// How many runs each metric holds, written before the runs: a file cut inside a case's runs
// (which end every case, and the file) holds fewer runs or metrics than it says.
void emit_run_counts(YAML::Emitter& out, const MetricRuns& runs) {
  out << YAML::Flow << YAML::BeginMap;
  for (const auto& [metric, metric_runs] : runs) emit_field(out, metric.c_str(), metric_runs.size());
  out << YAML::EndMap;
}

void check_run_counts(const YamlDocument& in, const YAML::Node& counts, const YAML::Node& runs_node,
                      const MetricRuns& runs, const std::string& at) {
  in.keys(counts, at + ".run_counts", {});  // a metric given twice
  for (const auto& entry : counts) {
    const std::string metric = entry.first.Scalar();
    const std::int64_t expected = in.integer(counts, metric, at + ".run_counts");
    auto found = runs.find(metric);
    if (found == runs.end())
      throw in.error(runs_node, at + ".runs." + metric,
                     "missing: run_counts says " + std::to_string(expected) + " runs (truncated file?)");
    if (static_cast<std::int64_t>(found->second.size()) != expected)
      throw in.error(runs_node, at + ".runs." + metric,
                     std::to_string(found->second.size()) + " runs, but run_counts says " +
                         std::to_string(expected) + " (truncated or hand-edited file?)");
  }
  for (const auto& [metric, metric_runs] : runs)
    if (!counts[metric])
      throw in.error(counts, at + ".run_counts." + metric, "missing for a metric that has runs");
}

// A schema 1 file records no run counts, but what wrote it did hold to two rules: its `median`
// map names every metric of `runs`, and every metric has a run for each run latency_ns has,
// except cold_latency_ns, which a run may leave out (judge/candidate_pool.cpp). A file cut
// inside its last case's runs breaks one of them.
void check_schema1_complete(const YamlDocument& in, const YAML::Node& map, const YAML::Node& runs_node,
                            const MetricRuns& runs, const std::string& at) {
  const YAML::Node medians = in.required_map(map, "median", at);
  for (const auto& entry : medians)
    if (!runs.contains(entry.first.Scalar()))
      throw in.error(runs_node, at + ".runs." + entry.first.Scalar(),
                     "missing, though the case has a median for it (truncated file?)");
  for (const auto& [metric, metric_runs] : runs)
    if (!medians[metric])
      throw in.error(medians, at + ".median." + metric, "missing for a metric that has runs");
  auto latency = runs.find(metric::latency_ns);
  if (latency == runs.end()) throw in.error(runs_node, at + ".runs.latency_ns", "missing (truncated file?)");
  for (const auto& [metric, metric_runs] : runs) {
    const bool may_lack_runs = metric == metric::cold_latency_ns;
    if (metric_runs.size() > latency->second.size() ||
        (!may_lack_runs && metric_runs.size() < latency->second.size()))
      throw in.error(runs_node, at + ".runs." + metric,
                     std::to_string(metric_runs.size()) + " runs, but latency_ns has " +
                         std::to_string(latency->second.size()) + " (truncated or hand-edited file?)");
  }
}

void emit_approval(YAML::Emitter& out, const Approval& a) {
  out << YAML::BeginMap;
  emit_field(out, "by", a.by);
  emit_field(out, "at", a.at);
  emit_field(out, "reason", a.reason);
  emit_field(out, "commit", a.commit);
  out << YAML::EndMap;
}

// Medians for a reader of the file; never read back (the samples are the truth).
void emit_medians(YAML::Emitter& out, const MetricRuns& runs) {
  out << YAML::BeginMap;
  for (const auto& [metric, metric_runs] : runs) {
    const std::vector<double> all = pooled(metric_runs);
    out << YAML::Key << metric << YAML::Value << round_trip_text(median(all));
  }
  out << YAML::EndMap;
}

void emit_case(YAML::Emitter& out, const BaselineCase& c) {
  out << YAML::Key << c.id << YAML::Value << YAML::BeginMap;
  emit_field(out, "backend", c.backend);
  emit_field(out, "perfgate_version", c.perfgate_version);
  emit_field(out, "source_hash", c.source_hash);
  if (c.fits_in_cache) emit_field(out, "fits_in_cache", *c.fits_in_cache);
  if (!c.bound.empty()) emit_field(out, "bound", c.bound);
  if (!c.calibration_reference.empty()) emit_field(out, "calibration_reference", c.calibration_reference);
  if (c.cpu_wait_share > 0) emit_field(out, "cpu_wait_share", round_trip_text(c.cpu_wait_share));
  emit_field(out, "measured_at", c.measured_at);
  emit_field(out, "commit", c.commit);
  out << YAML::Key << "approval" << YAML::Value;
  emit_approval(out, c.approval);
  out << YAML::Key << "fingerprint" << YAML::Value;
  emit_fingerprint(out, c.fingerprint);
  out << YAML::Key << "median" << YAML::Value;
  emit_medians(out, c.runs);
  out << YAML::Key << "run_counts" << YAML::Value;
  emit_run_counts(out, c.runs);
  out << YAML::Key << "runs" << YAML::Value;
  emit_runs(out, c.runs);
  if (!c.run_devices.empty()) {
    out << YAML::Key << "run_devices" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& uuid : c.run_devices) out << uuid;
    out << YAML::EndSeq;
  }
  if (c.periods > 1) emit_field(out, "periods", c.periods);
  out << YAML::EndMap;
}

BaselineCase read_case(const YamlDocument& in, const std::string& id, const YAML::Node& map,
                       const std::string& kernel, std::int64_t schema) {
  const std::string at = "cases." + id;
  if (!map.IsMap()) throw in.error(map, at, "expected a map");
  in.keys(map, at,
          {"backend", "perfgate_version", "source_hash", "fits_in_cache", "bound", "calibration_reference", "cpu_wait_share", "measured_at", "commit", "approval",
           "fingerprint", "median", "run_counts", "runs", "run_devices", "periods"});
  BaselineCase c;
  c.id = id;
  c.kernel = kernel;
  c.backend = in.text(map, "backend", at);
  c.perfgate_version = in.text(map, "perfgate_version", at);
  c.source_hash = in.optional_text(map, "source_hash", at);
  c.fits_in_cache = in.optional_boolean(map, "fits_in_cache", at);
  c.bound = read_bound(in, map, at);
  c.calibration_reference = in.optional_text(map, "calibration_reference", at);
  c.cpu_wait_share = read_cpu_wait_share(in, map, at);
  c.measured_at = in.text(map, "measured_at", at);
  c.commit = in.optional_text(map, "commit", at);
  const YAML::Node approval = in.required_map(map, "approval", at);
  in.keys(approval, at + ".approval", {"by", "at", "reason", "commit"});
  c.approval.by = in.text(approval, "by", at + ".approval");
  c.approval.at = in.text(approval, "at", at + ".approval");
  c.approval.reason = in.text(approval, "reason", at + ".approval");
  c.approval.commit = in.optional_text(approval, "commit", at + ".approval");
  c.fingerprint = read_fingerprint(in, in.required_map(map, "fingerprint", at), at + ".fingerprint");
  const YAML::Node runs = in.required_map(map, "runs", at);
  c.runs = read_runs(in, runs, at + ".runs");
  if (schema == 1) {
    if (map["run_counts"]) throw in.error(map["run_counts"], at + ".run_counts", "not part of schema 1");
    check_schema1_complete(in, map, runs, c.runs, at);
  } else {
    check_run_counts(in, in.required_map(map, "run_counts", at), runs, c.runs, at);
  }
  if (const YAML::Node devices = map["run_devices"]) {
    c.run_devices = read_run_devices(in, devices, at + ".run_devices");
    const auto latency = c.runs.find(metric::latency_ns);
    const std::size_t run_count = latency == c.runs.end() ? 0 : latency->second.size();
    if (c.run_devices.size() != run_count)
      throw in.error(devices, at + ".run_devices",
                     std::to_string(c.run_devices.size()) + " devices for " + std::to_string(run_count) +
                         " runs of latency_ns (truncated or edited?)");
  }
  const auto latency = c.runs.find(metric::latency_ns);
  c.periods = read_periods(in, map, at, latency == c.runs.end() ? 0 : latency->second.size());
  return c;
}

}  // namespace

std::string to_yaml(const KernelBaselines& b) {
  YAML::Emitter out;
  out << YAML::Comment(
      "perfgate approved baselines. Written by `perfgate baseline approve`; review "
      "changes in pull requests, never edit by hand.");
  out << YAML::BeginMap;
  emit_field(out, "schema", kBaselineSchema);
  emit_field(out, "machine_id", b.machine_id);
  emit_field(out, "kernel", b.kernel);
  emit_field(out, "case_count", b.cases.size());
  out << YAML::Key << "cases" << YAML::Value << YAML::BeginMap;
  for (const auto& c : b.cases) emit_case(out, c);
  out << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

KernelBaselines parse_kernel_baselines(const std::string& text, const std::string& file) {
  const YamlDocument in(file, text);
  const YAML::Node& root = in.root();
  in.keys(root, "", {"schema", "machine_id", "kernel", "case_count", "cases"});
  const std::int64_t schema = in.integer(root, "schema", "");
  if (schema != 1 && schema != kBaselineSchema)
    throw in.error(root["schema"], "schema", "unsupported baseline schema (this perfgate reads 1 and 2)");
  KernelBaselines b;
  b.machine_id = in.text(root, "machine_id", "");
  b.kernel = in.text(root, "kernel", "");
  const std::int64_t count = in.integer(root, "case_count", "");
  const YAML::Node cases = in.required_map(root, "cases", "");
  in.keys(cases, "cases", {});  // a case given twice
  for (const auto& entry : cases)
    b.cases.push_back(read_case(in, entry.first.Scalar(), entry.second, b.kernel, schema));
  if (static_cast<std::int64_t>(b.cases.size()) != count)
    throw in.error(cases, "cases",
                   "holds " + std::to_string(b.cases.size()) + " cases but case_count says " +
                       std::to_string(count) + " (truncated or hand-edited file?)");
  std::sort(b.cases.begin(), b.cases.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  for (std::size_t i = 1; i < b.cases.size(); ++i)
    if (b.cases[i].id == b.cases[i - 1].id) throw in.error(cases, "cases." + b.cases[i].id, "appears twice");
  return b;
}

void upsert(KernelBaselines& b, BaselineCase updated) {
  auto it = std::lower_bound(b.cases.begin(), b.cases.end(), updated.id,
                             [](const BaselineCase& c, const std::string& id) { return c.id < id; });
  if (it != b.cases.end() && it->id == updated.id)
    *it = std::move(updated);
  else
    b.cases.insert(it, std::move(updated));
}

}  // namespace perfgate
