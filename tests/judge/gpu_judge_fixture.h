#pragma once
// Seeded synthetic GPU results and baselines for the judge tests that turn on the device: which
// GPU of a model a baseline came from, and whether a case's working set fits in the cache.
#include <random>
#include <string>
#include <vector>

#include "judge/thresholds.h"
#include "perfgate/metric_names.h"
#include "perfgate/result.h"

namespace perfgate::gpu_testing {

// n samples around `median` with a relative Gaussian jitter.
inline std::vector<double> around(std::mt19937_64& rng, double median, double jitter, int n = 60) {
  std::normal_distribution<double> z(0, jitter);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(median * (1 + z(rng)));
  return v;
}

inline Fingerprint h100(const std::string& uuid) {
  Fingerprint f;
  f.machine_id = "nvidia-h100-80gb-hbm3";
  f.device_uuid = uuid;
  return f;
}

// An H200 of a host (a merged baseline's GPUs may each sit in another).
inline Fingerprint h200(const std::string& uuid, const std::string& host = "a1") {
  Fingerprint f = h100(uuid);
  f.machine_id = "nvidia-h200";
  f.host_id = host;
  return f;
}

// Thresholds that judge latency on its runs' noise alone: no floor.
inline Thresholds runs_only() {
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 0;
  return t;
}

// A measured case: its latency samples around `latency`, in the cache or beyond it.
inline CaseResult measured_on_gpu(std::mt19937_64& rng, const std::string& id, double latency, bool in_cache,
                                  double jitter) {
  CaseResult r;
  r.id = id;
  r.fits_in_cache = in_cache;
  r.metrics[metric::latency_ns].samples = around(rng, latency, jitter);
  return r;
}

}  // namespace perfgate::gpu_testing
