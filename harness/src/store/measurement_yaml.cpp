#include "store/measurement_yaml.h"

#include "store/sample_limits.h"

namespace perfgate {
namespace {

// Far above what a real case stores (a run keeps at most max_samples, a few hundred; a
// candidate has a handful of runs) and low enough that a file within its size limit cannot
// make a reader pool hundreds of millions of samples.
constexpr std::size_t kMaxMetrics = 64;
constexpr std::size_t kMaxRunsPerMetric = 1000;
constexpr std::size_t kMaxSamplesPerRun = 100000;

}  // namespace

void emit_fingerprint(YAML::Emitter& out, const Fingerprint& f) {
  out << YAML::BeginMap;
  emit_field(out, "machine_id", f.machine_id);
  emit_field(out, "backend", f.backend);
  emit_field(out, "device_name", f.device_name);
  emit_field(out, "vendor_id", f.vendor_id);
  emit_field(out, "device_id", f.device_id);
  emit_field(out, "driver_version", f.driver_version);
  emit_field(out, "api_version", f.api_version);
  emit_field(out, "device_uuid", f.device_uuid);
  if (!f.host_id.empty()) emit_field(out, "host_id", f.host_id);
  emit_field(out, "cpu_model", f.cpu_model);
  emit_field(out, "cpu_threads", f.cpu_threads);
  emit_field(out, "compiler", f.compiler);
  emit_field(out, "build_type", f.build_type);
  if (!f.build_flags.empty()) emit_field(out, "build_flags", f.build_flags);
  out << YAML::EndMap;
}

std::vector<std::string> read_run_devices(const YamlDocument& in, const YAML::Node& list, const std::string& at) {
  if (!list.IsSequence() || list.size() == 0) throw in.error(list, at, "expected a non-empty list of device uuids");
  std::vector<std::string> devices;
  for (const auto& item : list) {
    if (!item.IsScalar() || item.Scalar().empty()) throw in.error(item, at, "expected a device uuid");
    devices.push_back(item.Scalar());
  }
  return devices;
}

Fingerprint read_fingerprint(const YamlDocument& in, const YAML::Node& map, const std::string& at) {
  in.keys(map, at,
          {"machine_id", "backend", "device_name", "vendor_id", "device_id", "driver_version", "api_version",
           "device_uuid", "host_id", "cpu_model", "cpu_threads", "compiler", "build_type", "build_flags"});
  Fingerprint f;
  f.machine_id = in.text(map, "machine_id", at);
  f.backend = in.text(map, "backend", at);
  f.device_name = in.optional_text(map, "device_name", at);
  f.vendor_id = static_cast<std::uint32_t>(in.integer(map, "vendor_id", at));
  f.device_id = static_cast<std::uint32_t>(in.integer(map, "device_id", at));
  f.driver_version = in.optional_text(map, "driver_version", at);
  f.api_version = in.optional_text(map, "api_version", at);
  f.device_uuid = in.optional_text(map, "device_uuid", at);
  f.host_id = in.optional_text(map, "host_id", at);
  f.cpu_model = in.optional_text(map, "cpu_model", at);
  f.cpu_threads = static_cast<int>(in.integer(map, "cpu_threads", at));
  f.compiler = in.optional_text(map, "compiler", at);
  f.build_type = in.optional_text(map, "build_type", at);
  f.build_flags = in.optional_text(map, "build_flags", at);
  return f;
}

void emit_runs(YAML::Emitter& out, const MetricRuns& runs) {
  out << YAML::BeginMap;
  for (const auto& [metric, metric_runs] : runs) {
    out << YAML::Key << metric << YAML::Value << YAML::BeginSeq;
    for (const auto& samples : metric_runs) {
      out << YAML::Flow << YAML::BeginSeq;
      for (double sample : samples) out << round_trip_text(sample);
      out << YAML::EndSeq;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

std::string read_bound(const YamlDocument& in, const YAML::Node& map, const std::string& at) {
  std::string bound = in.optional_text(map, "bound", at);
  if (!bound.empty() && bound != "memory" && bound != "compute" && bound != "latency")
    throw in.error(map["bound"], at + ".bound", "expected memory, compute or latency, got \"" + bound + "\"");
  return bound;
}

double read_cpu_wait_share(const YamlDocument& in, const YAML::Node& map, const std::string& at) {
  const YAML::Node node = map["cpu_wait_share"];
  if (!node) return 0;
  const double share = in.number(node, at + ".cpu_wait_share");
  if (share < 0) throw in.error(node, at + ".cpu_wait_share", "expected a share of the time, 0 or more");
  return share;
}

int read_periods(const YamlDocument& in, const YAML::Node& map, const std::string& at, std::size_t runs) {
  const YAML::Node node = map["periods"];
  if (!node) return 1;
  const std::string key = at.empty() ? "periods" : at + ".periods";
  const int periods = in.plain_integer_at_least(node, key, 1);
  if (static_cast<std::size_t>(periods) > runs)
    throw in.error(node, key, std::to_string(periods) + " periods for " + std::to_string(runs) + " runs");
  return periods;
}

MetricRuns read_runs(const YamlDocument& in, const YAML::Node& map, const std::string& at) {
  if (!map.IsMap() || map.size() == 0) throw in.error(map, at, "expected a map of metric -> runs");
  if (map.size() > kMaxMetrics)
    throw in.error(map, at,
                   std::to_string(map.size()) + " metrics, over the limit of " + std::to_string(kMaxMetrics));
  in.keys(map, at, {});  // a metric given twice
  MetricRuns runs;
  for (const auto& entry : map) {
    const std::string metric = entry.first.Scalar();
    const std::string where = at + "." + metric;
    if (!entry.second.IsSequence() || entry.second.size() == 0)
      throw in.error(entry.second, where, "expected a list of runs");
    if (entry.second.size() > kMaxRunsPerMetric)
      throw in.error(entry.second, where,
                     std::to_string(entry.second.size()) + " runs, over the limit of " +
                         std::to_string(kMaxRunsPerMetric));
    auto& metric_runs = runs[metric];
    for (const auto& run : entry.second) {
      metric_runs.push_back(in.numbers(run, where, kMaxSamplesPerRun));
      for (double sample : metric_runs.back())
        if (auto why = implausible_value(metric, sample)) throw in.error(run, where, *why);
    }
  }
  return runs;
}

}  // namespace perfgate
