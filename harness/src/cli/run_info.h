#pragma once
// The context of a run: id, time, commit and branch (from the CI environment or git).
#include "perfgate/result.h"

namespace perfgate {

// Commit and branch come from the CI environment, else from git in `project_dir`.
RunResult new_run(const Fingerprint& fingerprint, const std::string& project_dir);
std::string utc_now_iso8601();
std::string source_commit(const std::string& project_dir);

}  // namespace perfgate
