#pragma once
// The context of a run: id, time, commit and branch (from the CI environment or git).
#include "perfgate/result.h"

namespace perfgate::cli {

RunResult new_run(const Fingerprint& fingerprint);
std::string utc_now_iso8601();
std::string source_commit();

}  // namespace perfgate::cli
