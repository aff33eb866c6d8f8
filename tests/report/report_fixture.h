#pragma once
// Runs built in code for the report tests: deterministic samples, every verdict, a staged case.
#include <string>
#include <vector>

#include "perfgate/result.h"
#include "stats/summary.h"

namespace perfgate::test {

inline Metric metric_of(std::vector<double> samples) {
  Metric m;
  m.samples = std::move(samples);
  m.summary = summarize(m.samples);
  return m;
}

// Latency samples around `median_ns` (deterministic spread of ±2%), with bandwidth from `bytes`.
inline CaseResult measured_case(const std::string& kernel, Params params, double median_ns, double bytes,
                                double flops = 0, Verdict verdict = Verdict::pass) {
  CaseResult c;
  c.kernel = kernel;
  c.backend = "cpu";
  c.params = std::move(params);
  c.id = kernel + "/cpu/" + c.params.id();
  c.cost = {bytes / 2, bytes / 2, flops};
  c.verdict = verdict;
  std::vector<double> ns, gbps, gflops;
  for (int i = 0; i < 21; ++i) {
    const double x = median_ns * (1 + 0.002 * (i - 10));
    ns.push_back(x);
    gbps.push_back(bytes / x);
    gflops.push_back(flops / x);
  }
  c.metrics["latency_ns"] = metric_of(ns);
  if (bytes > 0) c.metrics["bandwidth_gbps"] = metric_of(gbps);
  if (flops > 0) c.metrics["gflops"] = metric_of(gflops);
  c.arithmetic_intensity = bytes > 0 ? flops / bytes : 0;
  c.bound = flops / bytes < 1 ? "memory" : "compute";
  c.peak_bandwidth_gbps = 20;
  return c;
}

inline Judgement latency_judgement(double change_pct, Verdict verdict) {
  const double p_value = verdict == Verdict::pass ? 0.4 : 0.001;
  return {"latency_ns",     1000, 1000 * (1 + change_pct / 100), change_pct, 5, p_value, verdict,
          "latency changed"};
}

inline RunResult mixed_run() {
  RunResult run;
  run.perfgate_version = "0.1.0";
  run.run_id = "20240501T120000Z-4f3a9c";
  run.started_at = "2024-05-01T12:00:00Z";
  run.commit = "0123456789abcdef0123456789abcdef01234567";
  run.branch = "main";
  run.fingerprint.machine_id = "cpu-test-machine-2t";
  run.fingerprint.backend = "cpu";
  run.fingerprint.device_name = "Test CPU";
  run.fingerprint.cpu_model = "Test CPU @ 3.0GHz";
  run.fingerprint.cpu_threads = 2;
  run.fingerprint.build_type = "RelWithDebInfo";

  CaseResult pass = measured_case("copy", Params({{"n", 1048576}}), 800000, 8388608);
  pass.judgements.push_back(latency_judgement(1.2, Verdict::pass));
  CaseResult small_regression =
      measured_case("triad", Params({{"n", 65536}}), 9000, 786432, 131072, Verdict::regressed);
  small_regression.judgements.push_back(latency_judgement(8.5, Verdict::regressed));
  small_regression.message = "latency +8.5% > 5% threshold | p=0.001";
  CaseResult big_regression =
      measured_case("triad", Params({{"n", 1048576}}), 190000, 12582912, 2097152, Verdict::regressed);
  big_regression.judgements.push_back(latency_judgement(48.0, Verdict::regressed));
  big_regression.message = "latency +48.0% > 5% threshold";
  CaseResult error;
  error.id = "reduce/cpu/n=4096";
  error.kernel = "reduce";
  error.backend = "cpu";
  error.params = Params({{"n", 4096}});
  error.verdict = Verdict::error;
  error.message = "wrong result: rel L2 error 0.5 > 1e-6 <&\"'>";
  CaseResult skipped = error;
  skipped.id = "copy/vulkan/n=4096";
  skipped.kernel = "copy";
  skipped.backend = "vulkan";
  skipped.verdict = Verdict::skipped;
  skipped.message = "no Vulkan device";
  CaseResult fma = measured_case("fma_peak", Params({{"n", 16384}, {"iters", 1024}}), 400000, 131072,
                                 16384.0 * 1024 * 2, Verdict::no_baseline);

  run.cases = {pass, small_regression, skipped, error, big_regression, fma};
  return run;
}

// The attention layer: five stages, scores the slowest at 38% of the time.
inline CaseResult staged_case() {
  CaseResult c = measured_case("attention", Params({{"seq", 512}, {"d", 64}}), 100000, 4e6, 1e7);
  c.backend = "vulkan";
  c.id = "attention/vulkan/seq=512,d=64";
  c.stages = {{"qkv", 22000, 22},
              {"scores", 38000, 38},
              {"softmax", 12000, 12},
              {"weighted_sum", 18000, 18},
              {"output", 8000, 8}};
  c.metrics["latency_ns"] = metric_of({102000, 102000, 102000});
  c.metrics["host_latency_ns"] = metric_of({120000, 120000, 120000});
  c.peak_bandwidth_gbps = 100;
  return c;
}

// An A/B check that found head 2x slower than base (40 rounds, interval [1.95, 2.05]).
inline CaseResult ab_case() {
  CaseResult c = measured_case("copy", Params({{"n", 1048576}}), 200000, 8388608, 0, Verdict::regressed);
  c.message = "A/B: head/base median ratio 2.000";
  AbComparison ab;
  ab.base = {"/base/perfgate", "0.1.0", "aaaaaaaaaaaaaaaa", {}, 100000};
  ab.base.fingerprint.machine_id = "cpu-test-2t";
  ab.head = {"/head/perfgate", "0.2.0", "bbbbbbbbbbbbbbbb", {}, 200000};
  ab.rounds = 40;
  ab.median_ratio = 2.0;
  ab.interval_low = 1.95;
  ab.interval_high = 2.05;
  ab.p_value = 1e-6;
  ab.max_regression_pct = 5;
  ab.ratios = {1.9, 2.0, 2.1};
  c.ab = ab;
  return c;
}

}  // namespace perfgate::test
