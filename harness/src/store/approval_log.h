#pragma once
// baselines/<machine id>/APPROVALS.log: the append-only audit trail, one JSON object per line
// per approved or dropped case. Each line is one write(2) to a file opened with O_APPEND and is
// fsynced before the call returns, so concurrent writers never interleave inside a line.
#include <filesystem>
#include <string>
#include <vector>

namespace perfgate {

struct ApprovalLogEntry {
  std::string time;              // ISO 8601 UTC
  std::string action;            // "approve" | "drop"
  std::string case_id;
  std::string by;
  std::string reason;
  std::string commit;            // the commit the approval was made from
  std::string candidate_digest;  // empty for a drop
  std::string note;              // e.g. why a foreign machine's candidate was accepted
};

void append_to_log(const std::filesystem::path& log, const std::vector<ApprovalLogEntry>& entries);
// Every entry in order; throws Error naming the file and line of a line that is not an entry.
std::vector<ApprovalLogEntry> read_log(const std::filesystem::path& log);

}  // namespace perfgate
