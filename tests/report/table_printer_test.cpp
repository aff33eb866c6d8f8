#include "report/table_printer.h"

#include <gtest/gtest.h>

#include "perfgate/metric_names.h"
#include "report/report_fixture.h"

namespace perfgate {
namespace {

// The line of the table that starts with the case's id.
std::string row_of(const std::string& table, const std::string& id) {
  const auto at = table.find("\n" + id);
  if (at == std::string::npos) return "";
  return table.substr(at + 1, table.find('\n', at + 1) - at - 1);
}

TEST(ReportTable, VerdictShowsTheChangeOfTheMetricThatJudged) {
  RunResult run = test::mixed_run();
  run.cases.resize(1);
  CaseResult& c = run.cases[0];
  // Calibrated (CPU, llvmpipe): judged on relative_latency, the raw latency only recorded.
  c.judgements = {{metric::relative_latency, 1.0, 1.031, 3.1, 5, 0.3, Verdict::pass, "relative latency"}};
  EXPECT_NE(row_of(render_table(run, {}), c.id).find("pass +3.1%"), std::string::npos)
      << render_table(run, {});
  c.judgements.push_back(test::latency_judgement(-7.5, Verdict::improved));
  c.verdict = Verdict::pass;
  // Both judged: the calibrated one is what decided.
  EXPECT_NE(row_of(render_table(run, {}), c.id).find("pass +3.1%"), std::string::npos)
      << render_table(run, {});
  c.judgements = {test::latency_judgement(-7.5, Verdict::improved)};
  c.verdict = Verdict::improved;
  EXPECT_NE(row_of(render_table(run, {}), c.id).find("improved -7.5%"), std::string::npos);
  c.verdict = Verdict::no_baseline;
  c.judgements.clear();
  EXPECT_EQ(
      row_of(render_table(run, {}), c.id).find('%', row_of(render_table(run, {}), c.id).find("no-baseline")),
      std::string::npos);
}

// A results file is anyone's (compare A.json B.json): its ids and messages shown as text, the
// table's own colours kept.
TEST(ReportTable, AResultsFilesEscapesAreShownAsText) {
  RunResult run = test::mixed_run();
  run.cases.resize(1);
  run.cases[0].id = "copy\x1b]0;owned\x07";
  run.cases[0].verdict = Verdict::error;
  run.cases[0].message = "\x1b[2Jcleared";
  run.fingerprint.machine_id = "m\x1b[31m";
  const std::string plain = render_table(run, {}) + render_details(run, {});
  EXPECT_EQ(plain.find('\x1b'), std::string::npos) << plain;
  EXPECT_NE(plain.find("copy\\e]0;owned\\x07: \\e[2Jcleared"), std::string::npos) << plain;
  TableStyle colored;
  colored.color = true;
  const std::string table = render_table(run, colored);
  EXPECT_NE(table.find("\033[1;31m"), std::string::npos) << "the error's colour stays";
  EXPECT_EQ(table.find("\x1b]0"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
