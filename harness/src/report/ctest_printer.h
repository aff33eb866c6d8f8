#pragma once
// What `perfgate check` prints for CTest/CDash: one <CTestMeasurement> line per metric median and
// per judged metric's change, which CTest attaches to the test's result.
#include <string>

#include "perfgate/result.h"

namespace perfgate {

std::string render_ctest_measurements(const CaseResult& result);

}  // namespace perfgate
