#pragma once
// The append-only logs beside a history folder, one JSON object per line:
//   ACKNOWLEDGED.log  change points (and drifts) a named person accepted, with the reason: the
//                     gate passes them and they are never alerted again;
//   ALERTED.log       change points whose alert was delivered: alerted once. One that only waits
//                     in the outbox is not logged (in CI the outbox is thrown away with the job).
// Written under a lock beside each file and fsynced (store/json_lines.h: the one appender and its
// rule); a malformed line is an error naming the file and line.
#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace perfgate {

struct Acknowledgement {
  std::string id;  // a change point's or a drift's id (judge/history_analysis.h)
  std::string by;
  std::string reason;
  std::string at;  // ISO 8601 UTC
};

std::filesystem::path acknowledgements_file(const std::filesystem::path& history_dir);
std::filesystem::path alerted_file(const std::filesystem::path& history_dir);

// Appends one acknowledgement; throws Error when `by` or `reason` is empty. Acknowledging an id
// twice keeps both lines (the log is a record) and the first one stands.
void append_acknowledgement(const std::filesystem::path& history_dir, const Acknowledgement& ack);
// By id, the first acknowledgement of each. A missing file is an empty log.
std::map<std::string, Acknowledgement> read_acknowledgements(const std::filesystem::path& history_dir);

void append_alerted(const std::filesystem::path& history_dir, const std::string& id, const std::string& at);
std::set<std::string> read_alerted(const std::filesystem::path& history_dir);

}  // namespace perfgate
