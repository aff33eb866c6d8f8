#pragma once
// What a run produces: per case, the samples of each metric, their summary, the judgement
// against the baseline, and the context (machine fingerprint, commit) it was measured in.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/kernel.h"

namespace perfgate {

enum class Verdict { pass, improved, regressed, inconclusive, no_baseline, skipped, error };
std::string_view to_string(Verdict verdict);  // "pass", ..., "no-baseline"
Verdict verdict_from_string(std::string_view name);
// Exit code of `perfgate check` for a verdict: 0 pass/improved/inconclusive, 1 regressed,
// 2 error, 77 skipped or no-baseline (unless a baseline is required).
int exit_code(Verdict verdict, bool require_baseline);
// Worse verdicts sort first: error, regressed, inconclusive, no-baseline, improved, pass, skipped.
int severity(Verdict verdict);

// Everything that identifies where a number was measured. The machine id is its readable slug.
struct Fingerprint {
  std::string machine_id;  // "nvidia-h100-80gb-hbm3", "llvmpipe", "cpu-amd-epyc-7b13-2t"
  std::string backend;     // "cpu" | "vulkan"
  std::string device_name;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::string driver_version;  // decoded per vendor
  std::string api_version;     // Vulkan API version, empty on the CPU
  std::string device_uuid;
  // The host that measured (a digest of its /etc/machine-id, else of its hostname; never the id
  // itself): which runs, hosts of one machine id apart, a baseline's spread speaks for.
  std::string host_id;
  std::string cpu_model;
  int cpu_threads = 0;
  std::string compiler;
  std::string build_type;   // of the project whose kernels ran ("none": unoptimised)
  std::string build_flags;  // the C++ flags its kernels compiled with
};

struct Summary {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0, stddev = 0;
  double cv = 0;   // stddev / mean
  double mad = 0;  // median absolute deviation (unscaled)
  double p5 = 0, p95 = 0;
};

// Metric names are fixed (perfgate/metric_names.h). Samples are per dispatch (a batch's time
// divided by its dispatches). Where the driver tells them (NVML), sm_clock_mhz and
// memory_clock_mhz hold the GPU's clocks read after each hot sample: recorded, never judged.
struct Metric {
  std::vector<double> samples;
  Summary summary;
};

struct Judgement {
  std::string metric;
  double baseline_median = 0;
  double current_median = 0;
  double change_pct = 0;  // positive = worse, in the metric's direction
  // The regression allowed: the smallest change this case can fail on, on this machine (its
  // resolution), and where it comes from: "floor" (min_allowed_pct), "noise" (noise_factor x
  // the baseline's run-to-run sigma), "fixed" (max_regression_pct) or "unstable" (the runs
  // were multimodal or drifting, so the allowance covers what they showed); a named change (one
  // within its level's bound) has the source its bound is named by: "another device", "another
  // host", "one period".
  // Past an absolute floor (threshold_source "absolute floor"): how much worse than the baseline
  // the floor lies, 0 where the baseline is past it too or there is none.
  double threshold_pct = 0;
  double p_value = 1;  // rank test of current against baseline samples
  Verdict verdict = Verdict::pass;
  std::string reason;  // one line: why this verdict
  std::string threshold_source;
  double noise_pct = 0;  // the baseline's run-to-run sigma, % of its centre
  int baseline_runs = 0;
  bool unstable = false;
  std::string noise_note;  // why unstable, or an outlier run left out; empty otherwise
  // Inconclusive because this check's own spread called for more than load_max_pct
  // (judge/verdict.h): it says nothing about the change either way.
  bool too_busy = false;
  // The absolute floor (or limit) the median fell past ("absolute floor"), in the metric's unit;
  // 0 none. Last, so that aggregate initializers of the fields above stay as they are.
  double floor = 0;
  // Where the level judged against came from (judge/device_level.h): "baseline runs", "history
  // runs" (this device's gated runs placed it), "device spread" or "default bound" (nothing placed
  // this device or host: how far those of its class have been seen to differ bounds it); and how
  // far this device's level may lie from it, %, and the offset applied, %. A change within the
  // bound is named (inconclusive, `named`), past it judged as any change.
  std::string level_source;
  double level_bound_pct = 0;
  double level_offset_pct = 0;
  // Inconclusive because it lies within the bound of a level nothing placed: more samples of
  // this check cannot decide it (judge/verdict.h, only_named).
  bool named = false;
};

// A measurement made to confirm a regression, in a fresh state: its verdict and the change of
// the metric the case regressed on. A regression stands only when every confirmation bears it out.
struct Confirmation {
  Verdict verdict = Verdict::pass;
  std::string metric;
  double change_pct = 0;
};

// A statistic the driver reports of a compiled shader, by its own name: "Register Count",
// "Local Memory Size", ... (Vulkan, VK_KHR_pipeline_executable_properties; none where not offered).
struct ShaderStatistic {
  std::string name;
  double value = 0;
};

struct StageTiming {  // one component of a multi-dispatch plan
  std::string name;
  double latency_ns = 0;  // median per dispatch of the plan
  double pct_of_total = 0;
  // Judged when the case ran, against its ceilings, where the stage's cost is known (its own
  // kernel, measure/stage_bounds.h); "" unknown. As CaseResult's bound, bound_reason.
  std::string bound;
  std::string bound_reason;
  double pct_of_peak = 0;  // of the ceiling `bound` names; 0 unknown
};

// One build's side of an A/B check (`perfgate check --base`): what identifies the build.
struct AbBuild {
  std::string binary;  // path of the perfgate executable that measured this side
  std::string perfgate_version;
  std::string source_hash;  // the case's kernel source (+ SPIR-V) hash in that build
  Fingerprint fingerprint;
  double latency_ns = 0;  // median over every round's samples of this side
};

// Base and head measured at the same moment, interleaved in short rounds; judged on the
// per-round ratios head / base of latency_ns.
struct AbComparison {
  AbBuild base, head;
  int rounds = 0;
  double median_ratio = 0;                     // > 1: head slower
  double interval_low = 0, interval_high = 0;  // of the median ratio, at 1 - significance
  double p_value = 1;                          // paired signed-rank test beyond the allowance
  double max_regression_pct = 0;               // the allowance it was judged under
  std::vector<double> ratios;                  // one per round, in round order
};

// The device's measured ceilings, for % of peak, the bound and the roofline. 0 = unknown.
struct Peaks {
  double bandwidth_gbps = 0;        // DRAM: what copy reaches over a working set past the cache
  double cache_bandwidth_gbps = 0;  // the last-level cache (L2 on GPUs): cache_peak or in-cache copy
  double cache_bytes = 0;           // the last-level cache size working sets are compared with
  double gflops = 0;                // what fma_peak reaches
  double tensor_gflops = 0;         // what tensor_peak reaches: the ceiling of Cost::matrix_flops
};

struct CaseResult {
  std::string id;  // "<kernel>/<backend>/<params>"
  std::string kernel;
  std::string backend;
  Params params;
  Cost cost;
  std::string source_hash;  // kernel source (+ SPIR-V) hash
  Verdict verdict = Verdict::no_baseline;
  std::string message;  // error or skip reason, or the verdict's explanation
  std::string check;    // the correctness check's detail
  std::map<std::string, Metric> metrics;
  std::vector<Judgement> judgements;
  std::vector<StageTiming> stages;
  std::string bound;                // "memory" | "compute" | "latency" | "" (unknown)
  std::string bound_reason;         // "at 3% of peak DRAM bandwidth and 1% of peak GFLOP/s: ..."
  double arithmetic_intensity = 0;  // flops per byte
  bool fits_in_cache = false;       // working set smaller than the last-level cache
  int measurements = 1;             // 1 + re-measurements made before an inconclusive verdict stood
  // The first measurement's verdict when confirmations were made (it regressed), and them.
  std::optional<Verdict> first_verdict;
  std::vector<Confirmation> confirmations;
  int throttled_samples = 0;          // dropped: taken below 75% of the GPU's default SM clock
  std::string calibration_reference;  // the reference case of a calibrated measurement, or ""
  // Where its baseline was measured, when not on this device and host: "another device
  // (2614b971...)", "another host (a1b2c3d4e5f6)" or "a host it does not name"; "" otherwise
  // (judge/judge_case.cpp). A change past the case's own allowance is then named, not failed.
  std::string baseline_origin;
  double peak_bandwidth_gbps = 0;  // the ceiling pct_peak_bw is relative to: cache or DRAM
  Peaks peaks;                     // every ceiling of the device the case was measured on
  // The share of the measurement's wall time this process's threads waited for a core
  // (core/cpu_wait.h): a busy neighbour's cost to a raw time, which the samples need not show.
  double cpu_wait_share = 0;
  double encode_ns = 0;  // host time to record one dispatch of the plan (Vulkan; 0 on the CPU)
  // The device that measured this case: devices of one model share a machine id (and so
  // their baselines), and a results folder merged from several GPUs keeps each case's device.
  std::string device_uuid;
  std::string gpu_slot;  // the CTest `gpus` resource id it ran on, "" without a resource spec
  std::vector<std::array<std::uint32_t, 3>> local_sizes;        // per dispatch, from the SPIR-V (Vulkan)
  std::vector<std::vector<ShaderStatistic>> shader_statistics;  // per dispatch, where the driver reports them
  std::optional<AbComparison> ab;  // set by an A/B check: judged against a base build, not a baseline
};

struct RunResult {
  int schema = 1;
  std::string perfgate_version;
  std::string run_id;      // unique per run (timestamp + random)
  std::string started_at;  // ISO 8601 UTC
  std::string commit;      // git commit of the source tree, when known
  std::string branch;
  Fingerprint fingerprint;
  std::vector<CaseResult> cases;
};

std::string case_id(std::string_view kernel, Backend backend, const Params& params);

}  // namespace perfgate
