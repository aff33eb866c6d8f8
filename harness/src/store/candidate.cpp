#include "store/candidate.h"

#include <algorithm>
#include <new>

#include "core/atomic_file.h"
#include "core/content_digest.h"
#include "core/yaml_load.h"
#include "store/yaml_document.h"

namespace perfgate {
namespace {

constexpr int kCandidateSchema = 1;

void emit_case(YAML::Emitter& out, const CandidateCase& c) {
  out << YAML::BeginMap;
  emit_field(out, "id", c.id);
  emit_field(out, "kernel", c.kernel);
  emit_field(out, "backend", c.backend);
  emit_field(out, "source_hash", c.source_hash);
  if (c.fits_in_cache) emit_field(out, "fits_in_cache", *c.fits_in_cache);
  if (!c.bound.empty()) emit_field(out, "bound", c.bound);
  if (!c.calibration_reference.empty()) emit_field(out, "calibration_reference", c.calibration_reference);
  if (c.cpu_wait_share > 0) emit_field(out, "cpu_wait_share", round_trip_text(c.cpu_wait_share));
  out << YAML::Key << "runs" << YAML::Value;
  emit_runs(out, c.runs);
  out << YAML::EndMap;
}

CandidateCase read_case(const YamlDocument& in, const YAML::Node& map, std::size_t index,
                        std::size_t run_count) {
  const std::string at = "cases[" + std::to_string(index) + "]";
  in.keys(map, at, {"id", "kernel", "backend", "source_hash", "fits_in_cache", "bound", "calibration_reference", "cpu_wait_share", "runs"});
  CandidateCase c;
  c.id = in.text(map, "id", at);
  c.kernel = in.text(map, "kernel", at);
  c.backend = in.text(map, "backend", at);
  c.source_hash = in.optional_text(map, "source_hash", at);
  c.fits_in_cache = in.optional_boolean(map, "fits_in_cache", at);
  c.bound = read_bound(in, map, at);
  c.calibration_reference = in.optional_text(map, "calibration_reference", at);
  c.cpu_wait_share = read_cpu_wait_share(in, map, at);
  if (!c.id.starts_with(c.kernel + "/" + c.backend + "/"))
    throw in.error(map, at + ".id",
                   "\"" + c.id + "\" is not a case of kernel " + c.kernel + " on " + c.backend);
  const YAML::Node runs = in.required_map(map, "runs", at);
  c.runs = read_runs(in, runs, at + ".runs");
  for (const auto& [metric, metric_runs] : c.runs)
    if (metric_runs.size() > run_count)
      throw in.error(
          runs, at + ".runs." + metric,
          std::to_string(metric_runs.size()) + " runs, but the candidate has " + std::to_string(run_count));
  return c;
}

}  // namespace

std::string canonical_yaml(const Candidate& c) {
  YAML::Emitter out;
  out << YAML::Comment(
      "perfgate baseline candidate. Review: perfgate baseline diff FILE; approve: "
      "perfgate baseline approve FILE --by NAME --reason TEXT. Any edit voids its digest.");
  out << YAML::BeginMap;
  emit_field(out, "schema", kCandidateSchema);
  emit_field(out, "created_at", c.created_at);
  emit_field(out, "measured_at", c.measured_at);
  emit_field(out, "machine_id", c.fingerprint.machine_id);
  emit_field(out, "commit", c.commit);
  emit_field(out, "branch", c.branch);
  emit_field(out, "perfgate_version", c.perfgate_version);
  out << YAML::Key << "fingerprint" << YAML::Value;
  emit_fingerprint(out, c.fingerprint);
  out << YAML::Key << "run_ids" << YAML::Value << YAML::BeginSeq;
  for (const auto& id : c.run_ids) out << id;
  out << YAML::EndSeq;
  if (!c.run_devices.empty()) {
    out << YAML::Key << "run_devices" << YAML::Value << YAML::BeginSeq;
    for (const auto& uuid : c.run_devices) out << uuid;
    out << YAML::EndSeq;
  }
  if (c.periods > 1) emit_field(out, "periods", c.periods);
  out << YAML::Key << "cases" << YAML::Value << YAML::BeginSeq;
  for (const auto& one : c.cases) emit_case(out, one);
  out << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string content_digest(const Candidate& c) { return sha256_digest(canonical_yaml(c)); }

std::string to_yaml(const Candidate& c) { return canonical_yaml(c) + "digest: " + content_digest(c) + "\n"; }

Candidate parse_candidate(const std::string& text, const std::string& file) {
  const YamlDocument in(file, text);
  const YAML::Node& root = in.root();
  in.keys(root, "",
          {"schema", "created_at", "measured_at", "machine_id", "commit", "branch", "perfgate_version",
           "fingerprint", "run_ids", "run_devices", "periods", "cases", "digest"});
  if (in.integer(root, "schema", "") != kCandidateSchema)
    throw in.error(root["schema"], "schema", "unsupported candidate schema (this perfgate reads 1)");
  Candidate c;
  c.created_at = in.text(root, "created_at", "");
  c.measured_at = in.text(root, "measured_at", "");
  c.commit = in.optional_text(root, "commit", "");
  c.branch = in.optional_text(root, "branch", "");
  c.perfgate_version = in.text(root, "perfgate_version", "");
  c.fingerprint = read_fingerprint(in, in.required_map(root, "fingerprint", ""), "fingerprint");
  if (in.text(root, "machine_id", "") != c.fingerprint.machine_id)
    throw in.error(root["machine_id"], "machine_id", "differs from fingerprint.machine_id");
  const YAML::Node run_ids = in.required_sequence(root, "run_ids", "");
  for (const auto& id : run_ids) c.run_ids.push_back(id.Scalar());
  if (c.run_ids.empty()) throw in.error(run_ids, "run_ids", "no runs");
  if (const YAML::Node devices = root["run_devices"]) {
    c.run_devices = read_run_devices(in, devices, "run_devices");
    if (c.run_devices.size() != c.run_ids.size())
      throw in.error(devices, "run_devices",
                     std::to_string(c.run_devices.size()) + " devices for " + std::to_string(c.run_ids.size()) +
                         " runs");
  }
  c.periods = read_periods(in, root, "", c.run_ids.size());
  const YAML::Node cases = in.required_sequence(root, "cases", "");
  for (std::size_t i = 0; i < cases.size(); ++i)
    c.cases.push_back(read_case(in, cases[i], i, c.run_ids.size()));
  if (c.cases.empty()) throw in.error(cases, "cases", "no cases");
  c.digest = in.text(root, "digest", "");
  return c;
}

Candidate read_candidate(const std::filesystem::path& file) {
  try {
    return parse_candidate(read_bounded_file(file, kMaxStoreFileBytes), file.string());
  } catch (const std::bad_alloc&) {
    throw Error(file.string() + ": does not fit in memory");
  }
}

void verify_digest(const Candidate& c, const std::string& file) {
  if (content_digest(c) != c.digest)
    throw Error(file +
                ": digest does not match the content: the candidate was changed after it "
                "was proposed; propose again (perfgate baseline propose)");
}

}  // namespace perfgate
