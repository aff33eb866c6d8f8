#pragma once
// A candidate baseline: what `perfgate baseline propose` measured (several separate runs of each
// case) and `perfgate baseline approve` moves into baselines/. It carries a SHA-256 digest over
// its canonical content, so a candidate edited after proposing is refused.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/result.h"
#include "store/measurement_yaml.h"

namespace perfgate {

struct CandidateCase {
  std::string id;
  std::string kernel;
  std::string backend;
  std::string source_hash;
  std::optional<bool> fits_in_cache;  // as BaselineCase::fits_in_cache
  std::string bound;                  // as BaselineCase::bound
  std::string calibration_reference;  // as BaselineCase::calibration_reference
  double cpu_wait_share = 0;          // as BaselineCase::cpu_wait_share
  MetricRuns runs;                    // latency_ns from every run; a metric a run left out has fewer runs
};

struct Candidate {
  std::string created_at;   // ISO 8601 UTC
  std::string measured_at;  // start of the first run, ISO 8601 UTC
  Fingerprint fingerprint;  // its machine_id decides where the baselines go
  std::string commit;
  std::string branch;
  std::string perfgate_version;
  std::vector<std::string> run_ids;  // one per separate run
  // The device uuid of each run, where the runs span several devices of one host (as
  // BaselineCase::run_devices); empty where every run measured `fingerprint`'s device.
  std::vector<std::string> run_devices;
  // The proposals its runs came from (as BaselineCase::periods): 1, or the sum of those merged.
  int periods = 1;
  std::vector<CandidateCase> cases;  // sorted by id
  std::string digest;                // as written in the file: "sha256:<hex>"

  const std::string& machine_id() const { return fingerprint.machine_id; }
};

// Everything but the digest, as it is written: the digest is computed over this text, and a
// candidate read back is written again to check it, so only a change of content counts.
std::string canonical_yaml(const Candidate& candidate);
std::string content_digest(const Candidate& candidate);
// The file: canonical YAML, then `digest: sha256:...` (computed here, not taken from the value).
std::string to_yaml(const Candidate& candidate);

// Throws Error naming the file and line on malformed, truncated or incomplete content.
Candidate parse_candidate(const std::string& text, const std::string& file);
Candidate read_candidate(const std::filesystem::path& file);
// Throws Error when the stored digest is not the digest of the content.
void verify_digest(const Candidate& candidate, const std::string& file);

}  // namespace perfgate
