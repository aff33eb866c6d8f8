#pragma once
// The append-only logs beside a history folder, one JSON object per line:
//   ACKNOWLEDGED.log  change points (and drifts) a named person accepted, with the reason: the
//                     gate passes them and they are never alerted again;
//   ALERTED.log       change points whose alert was delivered: alerted once. One that only waits
//                     in the outbox is not logged (in CI the outbox is thrown away with the job);
//   BISECTED.log      the commits `perfgate bisect --change-point` found a change point's step in.
// Written under a lock beside each file and fsynced (store/json_lines.h: the one appender and its
// rule); a malformed line is an error naming the file and line.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

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

// Where a change point's step was bisected to: the first slower commit, or every commit of a step
// split over several (oldest first), each with its measured change.
struct BisectedCommit {
  std::string sha;  // full
  std::string subject;
  double change_pct = 0, low_pct = 0, high_pct = 0;  // A/B against the commit before it
  bool exact = true;  // false: one of the commits the skipped ones leave open, this the last
};
struct Bisected {
  std::string id;  // the change point's
  std::vector<BisectedCommit> commits;
  int builds = 0;
  std::string at;  // ISO 8601 UTC
};

std::filesystem::path bisected_file(const std::filesystem::path& history_dir);
void append_bisected(const std::filesystem::path& history_dir, const Bisected& bisected);
// By id, the newest record of each (a later bisect of the same change point wins).
std::map<std::string, Bisected> read_bisected(const std::filesystem::path& history_dir);

void append_alerted(const std::filesystem::path& history_dir, const std::string& id, const std::string& at);
std::set<std::string> read_alerted(const std::filesystem::path& history_dir);

}  // namespace perfgate
