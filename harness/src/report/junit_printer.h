#pragma once
// A run as JUnit XML: one <testcase> per case with its metrics, verdict and delta as
// <properties> (ctest's own JUnit output drops measurements). Regressed and error cases carry a
// <failure>, skipped and no-baseline cases a <skipped>.
#include <string>

#include "perfgate/result.h"

namespace perfgate {

std::string render_junit(const RunResult& run);

}  // namespace perfgate
