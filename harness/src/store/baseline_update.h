#pragma once
// The only two ways baselines/ changes: approving a candidate and dropping retired cases. Both
// run under the machine folder's lock (two updates never interleave), are all-or-nothing across
// kernel files (store/update_journal.h: a kill leaves the old folder or, once the next command
// has finished the update, the new one), and append one log line per case.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "store/baseline.h"
#include "store/candidate.h"

namespace perfgate {

struct UpdateRequest {
  std::string by;      // who approves: required
  std::string reason;  // why: required
  std::string at;      // ISO 8601 UTC
  std::string commit;  // the commit the approval is made from
  std::string note;    // logged beside the reason (e.g. a machine mismatch accepted)
  std::chrono::milliseconds lock_timeout{30000};
  // Only for tests that kill an approval: how long to wait under the lock before each write.
  std::chrono::milliseconds test_delay{0};
};

struct UpdateOutcome {
  std::vector<std::string> case_ids;
  std::vector<std::filesystem::path> files;  // written or removed
  std::filesystem::path log;
};

// Merges the candidate's cases into baselines/<its machine id>/<kernel>.yaml (other cases of
// those files are kept as they are). Throws Error, with nothing changed, on a digest mismatch, a
// missing --by or --reason, a lock that stays taken, or an existing file that does not parse.
UpdateOutcome approve_candidate(const BaselineStore& store, const Candidate& candidate,
                                const UpdateRequest& request);

// Removes the cases whose id matches `case_glob` (fnmatch, or a kernel name) on one machine, or
// on every machine when `machine_id` is empty. A file left with no case is removed. Throws Error
// when nothing matches.
UpdateOutcome drop_cases(const BaselineStore& store, const std::string& machine_id,
                         const std::string& case_glob, const UpdateRequest& request);

// Whether a case id is selected by a drop or show pattern.
bool case_matches(const std::string& glob, const BaselineCase& baseline);

}  // namespace perfgate
