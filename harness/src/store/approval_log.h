#pragma once
// baselines/<machine id>/APPROVALS.log: the append-only audit trail, one JSON object per line
// per approved or dropped case. An update's lines are one write(2) to a file opened with O_APPEND
// and are fsynced before the call returns, so concurrent writers never interleave inside a line.
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

void append_to_log(const std::filesystem::path& log, const std::vector<ApprovalLogEntry>& entries);
// The lines append_to_log writes for `entries`, and the append itself (store/update_journal.h
// keeps the text to append it again after a kill).
std::string log_text(const std::vector<ApprovalLogEntry>& entries);
void append_log_text(const std::filesystem::path& log, const std::string& text);
// Every entry in order; throws Error naming the file and line of a line that is not an entry.
std::vector<ApprovalLogEntry> read_log(const std::filesystem::path& log);

}  // namespace perfgate
