#pragma once
// The history store: one JSON Lines file per machine (`<dir>/<machine id>.jsonl`) under a folder
// the user chooses, one line per case per run with what judging the run later needs: per metric
// the run's median and spread, the commit, the device, the perfgate version, the kernel source
// hash and the driver. Appends hold a lock beside the file (`<machine id>.jsonl.lock`), so runs
// appended by several processes at once all land, each line whole, and are fsynced
// (store/json_lines.h: the one appender and its rule). The HTML trend plots, `perfgate history`
// and its change points (judge/history_analysis.h) read it.
#include <chrono>
#include <filesystem>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct HistoryPoint {
  std::string machine_id;
  std::string run_id;
  std::string started_at;  // ISO 8601 UTC
  std::string commit;
  std::string branch;
  std::string case_id;
  Verdict verdict = Verdict::no_baseline;
  std::map<std::string, double> medians;  // metric name -> median of the run's samples
  // metric name -> the run's own spread: 1.4826 x the median absolute deviation of its samples
  // (a robust sigma, in the metric's unit). Absent in lines written before it was recorded.
  std::map<std::string, double> spreads;
  std::string device_uuid;
  std::string host_id;  // Fingerprint::host_id: which VM of a class ran it (absent in older lines)
  std::string perfgate_version;
  std::string source_hash;  // the case's kernel source (+ SPIR-V) hash
  std::string driver;       // the device's driver version
};

// `<dir>/<machine id>.jsonl`; a machine id that cannot name a file (store/machine_id.h) is an Error.
std::filesystem::path history_file(const std::filesystem::path& dir, const std::string& machine_id);

// How long a reader or writer waits for a history file's lock (held by a writer for one run's
// append, by a reader for one read) before it gives up, naming what holds it: past this, the
// holder is stuck, and a CI job had better fail than hang.
constexpr std::chrono::seconds kHistoryLockWait{60};

// Appends one line per case that has metrics. A run already in the file is not appended again,
// so appending the same results twice keeps one entry. Returns the number of lines written.
// A file whose last line was cut short (a writer killed mid-line) is refused with an error
// naming the file and line: appending after it would glue two entries into one bad line.
// The run's started_at must be an ISO 8601 UTC time not in the future and its machine id one
// that names a file (store/machine_id.h): else an Error naming `results_file` and nothing written.
int append_history(const std::filesystem::path& dir, const RunResult& run,
                   const std::string& results_file = "");

// The entries of one machine's history text, in file order, each line checked whole: a run id, a
// started_at (ISO 8601 UTC, not in the future; kept as "YYYY-MM-DDTHH:MM:SSZ"), a case, a known verdict,
// medians a measurement gives (store/sample_limits.h), a run's case at most once, at most kMaxJsonLineBytes.
// Throws Error naming `file` and the line otherwise.
std::vector<HistoryPoint> parse_history(std::istream& in, const std::string& file, const std::string& machine_id);

// Every entry of a case, oldest first (by start time, then file order). An empty machine id
// reads every machine's file. A missing folder or file is an empty history; a malformed line
// throws Error naming the file and line.
std::vector<HistoryPoint> read_history(const std::filesystem::path& dir, const std::string& case_id,
                                       const std::string& machine_id = "");

// Every entry of every case (of one machine, or of all when the machine id is empty), oldest
// first: what the HTML trends and `perfgate history` with a case glob read.
std::vector<HistoryPoint> read_all_history(const std::filesystem::path& dir,
                                           const std::string& machine_id = "",
                                           std::chrono::milliseconds lock_wait = kHistoryLockWait);

// Entries grouped by case id, each oldest first.
std::map<std::string, std::vector<HistoryPoint>> history_by_case(const std::vector<HistoryPoint>& points);

}  // namespace perfgate
