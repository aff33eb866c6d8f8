#pragma once
// Google Benchmark's JSON format (library 1.7) read as a perfgate run, so a team's own Google
// Benchmark results can be judged against baselines like any perfgate run. The export is
// report/gbench_json.h.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "perfgate/result.h"

namespace perfgate {

// A document with a "benchmarks" array and no perfgate "cases": Google Benchmark's output.
bool is_gbench_json(const nlohmann::json& json);

// One case per benchmark run_name (the name without the aggregate suffix); its iteration runs'
// real_time (in time_unit) are the latency samples. With only aggregates (aggregates-only
// output), the median (else the mean) is the single sample. The id is the run name, so
// threshold globs read `BM_memcpy/*`; names shaped like perfgate ids (kernel/backend/k=v,...)
// keep their kernel, backend and parameters, others take the first segment as kernel, "cpu" as
// backend and `name:value` or integer arguments as parameters. bytes_per_second and a FLOPS
// rate counter give the cost per iteration. Every case is no-baseline, or error when the
// benchmark reported one. Throws Error on a document that is not Google Benchmark JSON.
RunResult run_from_gbench_json(const nlohmann::json& json);

// Reads a perfgate results file or folder (store/result_json.h) or a Google Benchmark JSON file.
RunResult read_results_or_gbench(const std::filesystem::path& file);

}  // namespace perfgate
