#include "report/ctest_printer.h"

#include <gtest/gtest.h>

#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

TEST(ReportCtestPrinter, OneLinePerMedianAndPerJudgedChange) {
  CaseResult c;
  c.metrics[metric::latency_ns].summary.median = 1234567.891;
  c.metrics[metric::gflops].summary.median = 0.5;
  Judgement j;
  j.metric = metric::latency_ns;
  j.change_pct = -2.5;
  c.judgements.push_back(j);
  EXPECT_EQ(
      render_ctest_measurements(c),
      "<CTestMeasurement type=\"numeric/double\" name=\"gflops\">0.5</CTestMeasurement>\n"
      "<CTestMeasurement type=\"numeric/double\" name=\"latency_ns\">1.23457e+06</CTestMeasurement>\n"
      "<CTestMeasurement type=\"numeric/double\" name=\"latency_ns_change_pct\">-2.500</CTestMeasurement>\n");
}

}  // namespace
}  // namespace perfgate
