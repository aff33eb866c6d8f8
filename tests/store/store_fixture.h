#pragma once
// A scratch baselines folder and the baselines and candidates the store tests write into it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>

#include "store/baseline.h"
#include "store/candidate.h"

namespace perfgate::testing {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("perfgate-store-test-" + std::to_string(std::random_device{}()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

inline Fingerprint test_fingerprint(const std::string& machine_id = "cpu-test-2t") {
  Fingerprint f;
  f.machine_id = machine_id;
  f.backend = "cpu";
  f.device_name = "Test CPU: 2 threads";
  f.cpu_model = "Test CPU";
  f.cpu_threads = 2;
  f.compiler = "GNU 12.2.0";
  f.build_type = "Release";
  return f;
}

// Samples that %.6g or %.15g would not keep exactly.
inline std::vector<double> awkward_samples(double scale) {
  return {scale / 3, scale * 0.1, std::nextafter(scale, 2 * scale), std::nextafter(scale / 7, 0.0),
          scale * 1234567.891011121314};
}

inline BaselineCase baseline_case(const std::string& id, double scale, const std::string& by = "alice") {
  BaselineCase c;
  c.id = id;
  c.kernel = id.substr(0, id.find('/'));
  c.backend = "cpu";
  c.fingerprint = test_fingerprint();
  c.perfgate_version = "0.1.0";
  c.source_hash = "sha256:0123";
  c.measured_at = "2026-11-20T10:00:00Z";
  c.commit = "abc123";
  c.runs["latency_ns"] = {awkward_samples(scale), awkward_samples(scale * 1.01),
                          awkward_samples(scale * 0.99)};
  c.runs["bandwidth_gbps"] = {{scale / 7}, {scale / 7.1}, {scale / 6.9}};
  c.approval = {by, "2026-11-20T11:00:00Z", "first baseline: \"quoted\", #hash, colon: yes", "def456"};
  return c;
}

inline Candidate candidate_of(std::vector<std::string> ids, double scale,
                              const std::string& machine_id = "cpu-test-2t") {
  Candidate c;
  c.created_at = "2026-11-21T09:00:00Z";
  c.measured_at = "2026-11-21T08:59:00Z";
  c.fingerprint = test_fingerprint(machine_id);
  c.commit = "fedcba9876";
  c.branch = "main";
  c.perfgate_version = "0.1.0";
  c.run_ids = {"r1", "r2"};
  for (const auto& id : ids) {
    CandidateCase one;
    one.id = id;
    one.kernel = id.substr(0, id.find('/'));
    one.backend = "cpu";
    one.source_hash = "sha256:4567";
    one.runs["latency_ns"] = {awkward_samples(scale), awkward_samples(scale * 1.02)};
    c.cases.push_back(one);
  }
  c.digest = content_digest(c);
  return c;
}

}  // namespace perfgate::testing
