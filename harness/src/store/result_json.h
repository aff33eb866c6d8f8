#pragma once
// The results JSON of a run (schema documented in docs/results.md): what `--json FILE` writes and
// what `compare`, `report` and `notify` read.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "perfgate/result.h"

namespace perfgate {

nlohmann::json to_json(const Fingerprint& fingerprint);
Fingerprint fingerprint_from_json(const nlohmann::json& json);
nlohmann::json to_json(const CaseResult& result);
CaseResult case_from_json(const nlohmann::json& json);
nlohmann::json to_json(const RunResult& run);
RunResult run_from_json(const nlohmann::json& json);

// Reads a results file; throws Error naming the file and what is wrong. A folder is read as one
// run made of every *.json in it (what the CTest perf tests write with --results-dir), with a
// run id derived from theirs, so reading the same folder twice gives the same run id.
RunResult read_results(const std::filesystem::path& file);
// A results file already parsed into `document` (read_json_file); errors name `file`.
RunResult read_results(const std::filesystem::path& file, const nlohmann::json& document);
// Far above a real run's results (the 669 cases of the suite at 200 samples a metric: about 30 MB)
// and low enough that parsing one stays near 1 GB (a 125 MiB file of 1e5 cases: 10 s, 1.0 GB);
// a 1e6-case file (1.3 GB) parsed whole took 8.9 GB.
constexpr std::uintmax_t kMaxResultsFileBytes = std::uintmax_t{128} << 20;

// The JSON document in `file`; throws Error naming the file when it cannot be read, is larger than
// kMaxResultsFileBytes (checked before a byte is parsed) or is not JSON.
nlohmann::json read_json_file(const std::filesystem::path& file);
// Writes atomically (temporary file, then rename).
void write_results(const std::filesystem::path& file, const RunResult& run);

}  // namespace perfgate
