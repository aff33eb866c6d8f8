#pragma once
// baselines/<machine id>/APPROVALS.log: the append-only audit trail, one JSON object per line
// per approved or dropped case. An update appends its lines under the machine folder's lock
// (store/update_journal.h), through the one appender, which fsyncs them (store/json_lines.h).
#include <filesystem>
#include <string>
#include <vector>

namespace perfgate {

struct ApprovalLogEntry {
  std::string time;    // ISO 8601 UTC
  std::string action;  // "approve" | "drop"
  std::string case_id;
  std::string by;
  std::string reason;
  std::string commit;            // the commit the approval was made from
  std::string candidate_digest;  // empty for a drop
  std::string note;              // e.g. why a foreign machine's candidate was accepted
};

// What an update appends for `entries`, one line each (store/update_journal.h keeps the text, to
// append it again after a kill).
std::string log_text(const std::vector<ApprovalLogEntry>& entries);
// What names an entry in the log's errors, the appender's and the reader's.
inline constexpr const char* kApprovalLogEntry = "approval log entry";
// Every entry in order, read as store/json_lines.h reads every such file; throws Error naming the
// file and line of a line that is not an entry.
std::vector<ApprovalLogEntry> read_log(const std::filesystem::path& log);

}  // namespace perfgate
