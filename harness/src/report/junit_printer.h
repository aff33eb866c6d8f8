#pragma once
// A run as JUnit XML valid under the Jenkins xUnit JUnit schema (and read by GitLab): one
// <testcase> per case with its metrics, verdict and delta as "name: value" lines in <system-out>
// (ctest's own JUnit output drops measurements), times with at most 3 decimals. Regressed and
// error cases carry a <failure>, skipped and no-baseline cases a <skipped>.
#include <string>

#include "perfgate/result.h"

namespace perfgate {

std::string render_junit(const RunResult& run);

}  // namespace perfgate
