#include "store/approval_log.h"

#include <nlohmann/json.hpp>

#include "store/json_lines.h"

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

std::vector<ApprovalLogEntry> read_log(const std::filesystem::path& log) {
  std::vector<ApprovalLogEntry> entries;
  for_each_json_line(log, kApprovalLogEntry, [&](const nlohmann::json& j) {
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
  });
  return entries;
}

}  // namespace perfgate
