#pragma once
// Google Benchmark's JSON format (the `--benchmark_out_format=json` document, library 1.7),
// written so existing tooling (compare.py, dashboards) reads a perfgate run. The import is
// store/gbench_import.h.
#include <nlohmann/json.hpp>

#include "perfgate/result.h"

namespace perfgate {

// context (date, host, CPUs, build type, plus a "perfgate" object with the fingerprint, run id
// and commit) and benchmarks: per case 20 "iteration" runs, the latency samples' quantiles
// ((i + 0.5) / 20), so every case and every run has the same repetition count (real_time and
// cpu_time in ns, bytes_per_second, FLOPS when the case counts flops) and the mean, median and
// stddev "aggregate" runs. Cases without samples (error, skipped) appear once with
// error_occurred and error_message.
nlohmann::json to_gbench_json(const RunResult& run);

}  // namespace perfgate
