#include "report/ctest_printer.h"

#include <cstdio>

namespace perfgate {
namespace {

std::string measurement(const std::string& name, const char* value_format, double value) {
  char number[64];
  std::snprintf(number, sizeof number, value_format, value);
  return "<CTestMeasurement type=\"numeric/double\" name=\"" + name + "\">" + number +
         "</CTestMeasurement>\n";
}

}  // namespace

std::string render_ctest_measurements(const CaseResult& result) {
  std::string out;
  for (const auto& [name, metric] : result.metrics) out += measurement(name, "%.6g", metric.summary.median);
  for (const auto& j : result.judgements) out += measurement(j.metric + "_change_pct", "%.3f", j.change_pct);
  return out;
}

}  // namespace perfgate
