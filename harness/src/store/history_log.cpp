#include "store/history_log.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "core/file_lock.h"
#include "perfgate/error.h"
#include "store/json_lines.h"

namespace perfgate {
namespace {

using nlohmann::json;

void append_line(const std::filesystem::path& file, const json& line) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) throw Error(file.parent_path().string() + ": cannot create the history folder: " + ec.message());
  const FileLock lock(file.string() + ".lock", std::chrono::seconds(60), "writer of this log");
  // Every line present read first, as the readers will: a malformed one (anywhere, not only the
  // last) refuses the append, naming its line, rather than bury it under more.
  for_each_json_line(file, "log entry", [](const json& j) {
    if (!j.is_object()) throw Error("expected a JSON object");
  });
  append_json_lines(file, line.dump() + "\n", "log entry", lock);
}

}  // namespace

std::filesystem::path acknowledgements_file(const std::filesystem::path& history_dir) {
  return history_dir / "ACKNOWLEDGED.log";
}

std::filesystem::path alerted_file(const std::filesystem::path& history_dir) {
  return history_dir / "ALERTED.log";
}

void append_acknowledgement(const std::filesystem::path& history_dir, const Acknowledgement& ack) {
  if (ack.id.empty()) throw Error("history ack: the id is empty");
  if (ack.by.empty()) throw Error("history ack: --by NAME is required (who accepts the change)");
  if (ack.reason.empty()) throw Error("history ack: --reason TEXT is required (why the change is accepted)");
  append_line(acknowledgements_file(history_dir),
              {{"id", ack.id}, {"by", ack.by}, {"reason", ack.reason}, {"at", ack.at}});
}

std::map<std::string, Acknowledgement> read_acknowledgements(const std::filesystem::path& history_dir) {
  std::map<std::string, Acknowledgement> acks;
  for_each_json_line(acknowledgements_file(history_dir), "log entry", [&](const json& j) {
    Acknowledgement a{j.at("id"), j.at("by"), j.at("reason"), j.value("at", "")};
    acks.try_emplace(a.id, a);
  });
  return acks;
}

std::filesystem::path bisected_file(const std::filesystem::path& history_dir) {
  return history_dir / "BISECTED.log";
}

void append_bisected(const std::filesystem::path& history_dir, const Bisected& b) {
  if (b.id.empty() || b.commits.empty())
    throw Error("history: a bisect record needs a change point and a commit");
  json commits = json::array();
  for (const BisectedCommit& c : b.commits)
    commits.push_back({{"sha", c.sha},
                       {"subject", c.subject},
                       {"change_pct", c.change_pct},
                       {"interval_pct", {c.low_pct, c.high_pct}},
                       {"exact", c.exact}});
  append_line(bisected_file(history_dir),
              {{"id", b.id}, {"commits", commits}, {"builds", b.builds}, {"at", b.at}});
}

std::map<std::string, Bisected> read_bisected(const std::filesystem::path& history_dir) {
  std::map<std::string, Bisected> records;
  for_each_json_line(bisected_file(history_dir), "log entry", [&](const json& j) {
    Bisected b{j.at("id").get<std::string>(), {}, j.value("builds", 0), j.value("at", "")};
    for (const json& c : j.at("commits")) {
      const json interval = c.value("interval_pct", json::array({0.0, 0.0}));
      b.commits.push_back({c.at("sha").get<std::string>(), c.value("subject", ""), c.value("change_pct", 0.0),
                           interval.at(0).get<double>(), interval.at(1).get<double>(),
                           c.value("exact", true)});
    }
    if (b.commits.empty()) throw Error("a bisect record with no commit");
    records[b.id] = std::move(b);
  });
  return records;
}

void append_alerted(const std::filesystem::path& history_dir, const std::string& id, const std::string& at) {
  append_line(alerted_file(history_dir), {{"id", id}, {"at", at}});
}

std::set<std::string> read_alerted(const std::filesystem::path& history_dir) {
  std::set<std::string> ids;
  for_each_json_line(alerted_file(history_dir), "log entry",
                     [&](const json& j) { ids.insert(j.at("id").get<std::string>()); });
  return ids;
}

}  // namespace perfgate
