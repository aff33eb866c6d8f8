#include "store/approval_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "perfgate/error.h"

namespace perfgate {
namespace {

std::string to_line(const ApprovalLogEntry& e) {
  nlohmann::ordered_json j = {{"time", e.time},
                              {"action", e.action},
                              {"case", e.case_id},
                              {"by", e.by},
                              {"reason", e.reason},
                              {"commit", e.commit},
                              {"candidate_digest", e.candidate_digest}};
  if (!e.note.empty()) j["note"] = e.note;
  return j.dump() + "\n";  // dump() escapes newlines, so an entry is always one line
}

}  // namespace

std::string log_text(const std::vector<ApprovalLogEntry>& entries) {
  std::string text;
  for (const auto& entry : entries) text += to_line(entry);
  return text;
}

void append_log_text(const std::filesystem::path& log, const std::string& text) {
  int fd = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(log.string() + ": cannot open the approval log: " + std::strerror(errno));
  ssize_t n;
  do {
    n = ::write(fd, text.data(), text.size());
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(text.size())) {
    const int error = n < 0 ? errno : ENOSPC;
    ::close(fd);
    throw Error(log.string() + ": cannot append to the approval log: " + std::strerror(error));
  }
  const bool synced = ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  if (!synced) throw Error(log.string() + ": fsync of the approval log failed: " + std::strerror(error));
}

void append_to_log(const std::filesystem::path& log, const std::vector<ApprovalLogEntry>& entries) {
  append_log_text(log, log_text(entries));
}

std::vector<ApprovalLogEntry> read_log(const std::filesystem::path& log) {
  std::vector<ApprovalLogEntry> entries;
  std::ifstream in(log);
  if (!in) return entries;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    try {
      const auto j = nlohmann::json::parse(line);
      ApprovalLogEntry e;
      e.time = j.at("time");
      e.action = j.at("action");
      e.case_id = j.at("case");
      e.by = j.at("by");
      e.reason = j.at("reason");
      e.commit = j.value("commit", "");
      e.candidate_digest = j.value("candidate_digest", "");
      e.note = j.value("note", "");
      entries.push_back(std::move(e));
    } catch (const nlohmann::json::exception& ex) {
      throw located_error(log.string(), number, "", std::string("not an approval log entry: ") + ex.what());
    }
  }
  return entries;
}

}  // namespace perfgate
