#include "store/history.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/file_lock.h"
#include "perfgate/error.h"
#include "store/json_lines.h"

namespace perfgate {
namespace {

using nlohmann::json;

json to_json(const HistoryPoint& p) {
  return {{"run_id", p.run_id},
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
}

HistoryPoint point_from_json(const json& j, const std::string& machine_id) {
  HistoryPoint p;
  p.machine_id = machine_id;
  p.run_id = j.at("run_id");
  p.started_at = j.value("started_at", "");
  p.commit = j.value("commit", "");
  p.branch = j.value("branch", "");
  p.case_id = j.at("case");
  p.verdict = verdict_from_string(j.at("verdict").get<std::string>());
  p.medians = j.at("medians").get<std::map<std::string, double>>();
  p.spreads = j.value("spreads", std::map<std::string, double>{});
  p.device_uuid = j.value("device_uuid", "");
  p.perfgate_version = j.value("perfgate_version", "");
  p.source_hash = j.value("source_hash", "");
  p.driver = j.value("driver", "");
  return p;
}

// Entries whose case id passes `wanted`, from one machine's file or every file in the folder.
template <typename Wanted>
std::vector<HistoryPoint> read_matching(const std::filesystem::path& dir, const std::string& machine_id,
                                        Wanted wanted) {
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
    if (::access(dir.c_str(), W_OK) == 0) lock.emplace(file.string() + ".lock", std::chrono::seconds(60));
    for_each_json_line(file, "history entry", [&, &m = machine](const json& j) {
      if (wanted(j.at("case").get<std::string>())) points.push_back(point_from_json(j, m));
    });
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const HistoryPoint& a, const HistoryPoint& b) { return a.started_at < b.started_at; });
  return points;
}

}  // namespace

std::filesystem::path history_file(const std::filesystem::path& dir, const std::string& machine_id) {
  // A machine id is a slug already; keep anything else out of the path.
  std::string name = machine_id.empty() ? "unknown-machine" : machine_id;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '-';
  return dir / (name + ".jsonl");
}

namespace {

// Throws when the file's last line has no newline: a writer died in the middle of it.
void refuse_truncated(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return;
  std::string line;
  int number = 0;
  bool ends_with_newline = true;
  while (std::getline(in, line)) {
    ++number;
    ends_with_newline = !in.eof();
  }
  if (!ends_with_newline)
    throw located_error(file.string(), number, "",
                        "the last history entry was cut short (no end of line); repair or remove that line");
}

}  // namespace

int append_history(const std::filesystem::path& dir, const RunResult& run) {
  const auto file = history_file(dir, run.fingerprint.machine_id);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(dir.string() + ": cannot create the history folder: " + ec.message());
  // Held from reading the runs present to the end of the append: two processes appending the
  // same run keep one copy, and no reader of the lock sees half a run.
  const FileLock lock(file.string() + ".lock", std::chrono::seconds(60));
  refuse_truncated(file);
  std::set<std::string> runs_present;
  for_each_json_line(file, "history entry",
                     [&](const json& j) { runs_present.insert(j.value("run_id", "")); });
  if (runs_present.count(run.run_id)) return 0;

  std::string lines;
  int written = 0;
  for (const auto& c : run.cases) {
    if (c.metrics.empty()) continue;
    HistoryPoint p;
    p.machine_id = run.fingerprint.machine_id;
    p.run_id = run.run_id;
    p.started_at = run.started_at;
    p.commit = run.commit;
    p.branch = run.branch;
    p.case_id = c.id;
    p.verdict = c.verdict;
    p.device_uuid = c.device_uuid.empty() ? run.fingerprint.device_uuid : c.device_uuid;
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
  std::ofstream out(file, std::ios::app | std::ios::binary);
  out << lines;
  out.flush();
  if (!out) throw Error(file.string() + ": cannot append to the history file");
  return written;
}

std::vector<HistoryPoint> read_all_history(const std::filesystem::path& dir, const std::string& machine_id) {
  return read_matching(dir, machine_id, [](const std::string&) { return true; });
}

std::vector<HistoryPoint> read_history(const std::filesystem::path& dir, const std::string& case_id,
                                       const std::string& machine_id) {
  return read_matching(dir, machine_id, [&](const std::string& id) { return id == case_id; });
}

std::map<std::string, std::vector<HistoryPoint>> history_by_case(const std::vector<HistoryPoint>& points) {
  std::map<std::string, std::vector<HistoryPoint>> by_case;
  for (const auto& p : points) by_case[p.case_id].push_back(p);
  return by_case;
}

}  // namespace perfgate
