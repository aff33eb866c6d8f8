#include "store/history.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/file_lock.h"
#include "core/utc_time.h"
#include "perfgate/error.h"
#include "store/json_lines.h"
#include "store/machine_id.h"
#include "store/sample_limits.h"

namespace perfgate {
namespace {

using nlohmann::json;

json to_json(const HistoryPoint& p) {
  json j = {{"run_id", p.run_id},
            {"started_at", p.started_at},
            {"commit", p.commit},
            {"branch", p.branch},
            {"case", p.case_id},
            {"verdict", to_string(p.verdict)},
            {"medians", p.medians},
            {"spreads", p.spreads},
            {"device_uuid", p.device_uuid},
            {"perfgate_version", p.perfgate_version},
            {"source_hash", p.source_hash},
            {"driver", p.driver}};
  if (!p.host_id.empty()) j["host_id"] = p.host_id;
  return j;
}

// A string field that may be absent ("" then) but is text when given.
std::string optional_text(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (!it->is_string()) throw Error(std::string(key) + ": expected text, got " + it->dump());
  return it->get<std::string>();
}

std::string required_text(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string() || it->get<std::string>().empty())
    throw Error(std::string(key) + ": missing or not text; every entry names its " + key);
  return it->get<std::string>();
}

// metric -> value, every value a number that `check` accepts.
template <typename Check>
std::map<std::string, double> numbers(const json& j, const char* key, bool required, Check check) {
  std::map<std::string, double> values;
  const auto it = j.find(key);
  if (it == j.end() && !required) return values;
  if (it == j.end() || !it->is_object()) throw Error(std::string(key) + ": missing or not a map of metric -> number");
  for (const auto& [metric, value] : it->items()) {
    if (!value.is_number())
      throw Error(std::string(key) + "." + metric + ": " + value.dump() + " is not a number");
    const double v = value.template get<double>();
    if (auto why = check(metric, v)) throw Error(std::string(key) + "." + metric + ": " + *why);
    values[metric] = v;
  }
  return values;
}

// A run's start time as the history keeps it (UTC, "YYYY-MM-DDTHH:MM:SSZ"): the series is ordered
// by it, so text that is no time, or a time in the future, is refused rather than sorted.
std::string recorded_started_at(const std::string& text) {
  if (auto why = recorded_time_problem(text, std::time(nullptr))) throw Error("started_at: " + *why);
  return utc_time_text(*parse_utc_time(text));
}

// One line, checked whole: a value no measurement gives, a missing run id or case, an unknown
// verdict is an Error (the reader names the file and line), never a point silently left out.
HistoryPoint point_from_json(const json& j, const std::string& machine_id) {
  if (!j.is_object()) throw Error("expected a JSON object");
  HistoryPoint p;
  p.machine_id = machine_id;
  p.run_id = required_text(j, "run_id");
  p.started_at = recorded_started_at(required_text(j, "started_at"));
  p.commit = optional_text(j, "commit");
  p.branch = optional_text(j, "branch");
  p.case_id = required_text(j, "case");
  p.verdict = verdict_from_string(required_text(j, "verdict"));
  p.medians = numbers(j, "medians", true,
                      [](const std::string& metric, double v) { return implausible_value(metric, v, "median"); });
  if (p.medians.empty()) throw Error("medians: no metric; an entry holds at least one median");
  p.spreads = numbers(j, "spreads", false, [](const std::string& metric, double v) -> std::optional<std::string> {
    if (std::isfinite(v) && v >= 0) return std::nullopt;
    return metric + " spread " + std::to_string(v) + " is not a spread (expected a finite number, 0 or more)";
  });
  p.device_uuid = optional_text(j, "device_uuid");
  p.host_id = optional_text(j, "host_id");
  p.perfgate_version = optional_text(j, "perfgate_version");
  p.source_hash = optional_text(j, "source_hash");
  p.driver = optional_text(j, "driver");
  return p;
}

std::vector<HistoryPoint> read_file_points(const std::filesystem::path& file, const std::string& machine_id) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  return parse_history(in, file.string(), machine_id);
}

// Entries whose case id passes `wanted`, from one machine's file or every file in the folder.
template <typename Wanted>
std::vector<HistoryPoint> read_matching(const std::filesystem::path& dir, const std::string& machine_id,
                                        std::chrono::milliseconds lock_wait, Wanted wanted) {
  std::vector<std::pair<std::string, std::filesystem::path>> files;  // machine id, file
  if (!machine_id.empty()) {
    files.emplace_back(machine_id, history_file(dir, machine_id));
  } else if (std::filesystem::is_directory(dir)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().extension() == ".jsonl")
        files.emplace_back(entry.path().stem().string(), entry.path());
    std::sort(files.begin(), files.end());
  }
  std::vector<HistoryPoint> points;
  for (const auto& [machine, file] : files) {
    if (!std::filesystem::exists(file)) continue;
    // Read under the writers' lock, so a run being appended is seen whole or not at all; a
    // folder this process cannot write to has no writer to wait for.
    std::optional<FileLock> lock;
    if (::access(dir.c_str(), W_OK) == 0)
      lock.emplace(file.string() + ".lock", lock_wait, "reader or writer of this history");
    for (HistoryPoint& p : read_file_points(file, machine))
      if (wanted(p.case_id)) points.push_back(std::move(p));
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const HistoryPoint& a, const HistoryPoint& b) { return a.started_at < b.started_at; });
  return points;
}

}  // namespace

// Each line checked (point_from_json), a run's case given twice refused naming both lines:
// counted twice it would weigh double in the change points.
std::vector<HistoryPoint> parse_history(std::istream& in, const std::string& file, const std::string& machine_id) {
  std::vector<HistoryPoint> points;
  std::map<std::pair<std::string, std::string>, int> line_of;  // (run id, case) -> line
  for_each_json_line(in, file, "history entry", [&](const json& j, int number) {
    HistoryPoint p = point_from_json(j, machine_id);
    const auto [at, fresh] = line_of.try_emplace({p.run_id, p.case_id}, number);
    if (!fresh)
      throw Error("run " + p.run_id + " of " + p.case_id + " is already on line " + std::to_string(at->second) +
                  "; a run appears once per case: remove one of the two lines");
    points.push_back(std::move(p));
  });
  return points;
}

std::filesystem::path history_file(const std::filesystem::path& dir, const std::string& machine_id) {
  if (auto why = machine_id_problem(machine_id)) throw Error("no history file for it: " + *why);
  return dir / (machine_id + ".jsonl");
}

int append_history(const std::filesystem::path& dir, const RunResult& run, const std::string& results_file) {
  const auto refused = [&](const std::string& why) {
    return Error((results_file.empty() ? "" : results_file + ": ") + why + "; nothing appended to " +
                 dir.string());
  };
  if (auto why = machine_id_problem(run.fingerprint.machine_id)) throw refused("machine_id: " + *why);
  std::string started_at;
  try {
    started_at = recorded_started_at(run.started_at);
  } catch (const Error& e) {
    throw refused(e.what());
  }
  const auto file = history_file(dir, run.fingerprint.machine_id);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(dir.string() + ": cannot create the history folder: " + ec.message());
  // Held from reading the runs present to the end of the append: two processes appending the
  // same run keep one copy, and no reader of the lock sees half a run.
  const FileLock lock(file.string() + ".lock", kHistoryLockWait, "reader or writer of this history");
  refuse_cut_last_line(file, "history entry");
  // Every line present is checked before one is added: a bad line is refused with nothing appended.
  std::set<std::string> runs_present;
  for (const HistoryPoint& p : read_file_points(file, run.fingerprint.machine_id)) runs_present.insert(p.run_id);
  if (runs_present.count(run.run_id)) return 0;

  std::string lines;
  int written = 0;
  for (const auto& c : run.cases) {
    if (c.metrics.empty()) continue;
    HistoryPoint p;
    p.machine_id = run.fingerprint.machine_id;
    p.run_id = run.run_id;
    p.started_at = started_at;
    p.commit = run.commit;
    p.branch = run.branch;
    p.case_id = c.id;
    p.verdict = c.verdict;
    p.device_uuid = c.device_uuid.empty() ? run.fingerprint.device_uuid : c.device_uuid;
    p.host_id = run.fingerprint.host_id;
    p.perfgate_version = run.perfgate_version;
    p.source_hash = c.source_hash;
    p.driver = run.fingerprint.driver_version;
    for (const auto& [name, metric] : c.metrics) {
      p.medians[name] = metric.summary.median;
      p.spreads[name] = 1.4826 * metric.summary.mad;
    }
    lines += to_json(p).dump() + "\n";
    ++written;
  }
  if (written == 0) return 0;
  append_json_lines(file, lines, "history entry", lock);
  return written;
}

std::vector<HistoryPoint> read_all_history(const std::filesystem::path& dir, const std::string& machine_id,
                                           std::chrono::milliseconds lock_wait) {
  return read_matching(dir, machine_id, lock_wait, [](const std::string&) { return true; });
}

std::vector<HistoryPoint> read_history(const std::filesystem::path& dir, const std::string& case_id,
                                       const std::string& machine_id) {
  return read_matching(dir, machine_id, kHistoryLockWait, [&](const std::string& id) { return id == case_id; });
}

std::map<std::string, std::vector<HistoryPoint>> history_by_case(const std::vector<HistoryPoint>& points) {
  std::map<std::string, std::vector<HistoryPoint>> by_case;
  for (const auto& p : points) by_case[p.case_id].push_back(p);
  return by_case;
}

}  // namespace perfgate
