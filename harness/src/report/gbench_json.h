#pragma once
// Google Benchmark's JSON format (the `--benchmark_out_format=json` document, library 1.7),
// written so existing tooling (compare.py, dashboards) reads a perfgate run. The import is
// store/gbench_import.h.
#include <nlohmann/json.hpp>

#include "perfgate/result.h"

namespace perfgate {

// context (date, host, CPUs, build type, plus a "perfgate" object with the fingerprint, run id
// and commit) and benchmarks: per case 20 "iteration" runs, so every case and every run has the
// same repetition count: with 20 samples or more the medians of 20 consecutive blocks of them in
// the order measured, else their quantiles ((i + 0.5) / 20); real_time and cpu_time the latency
// in ns, or for a calibrated case what the gate judged, its relative_latency (marked
// "perfgate_metric": "relative_latency", the raw time in the counter latency_ns);
// bytes_per_second, FLOPS when the case counts flops; then the mean, median and stddev
// "aggregate" runs. Cases without samples (error, skipped) appear once with
// error_occurred and error_message.
nlohmann::json to_gbench_json(const RunResult& run);

}  // namespace perfgate
