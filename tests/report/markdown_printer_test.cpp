#include "report/markdown_printer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/report_fixture.h"

namespace perfgate {
namespace {

std::vector<std::string> table_rows(const std::string& markdown) {
  std::vector<std::string> rows;
  std::istringstream in(markdown);
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| verdict |", 0) == 0)
      in_table = true;
    else if (in_table && line.rfind("| ---", 0) == 0)
      continue;
    else if (in_table && line.rfind("|", 0) == 0)
      rows.push_back(line);
    else
      in_table = false;
  }
  return rows;
}

TEST(ReportMarkdown, VerdictTableWorstFirst) {
  const auto rows = table_rows(render_markdown(test::mixed_run()));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_NE(rows[0].find("**error**"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("`reduce/cpu/n=4096`"), std::string::npos);
  // The larger regression first.
  EXPECT_NE(rows[1].find("`triad/cpu/n=1048576`"), std::string::npos) << rows[1];
  EXPECT_NE(rows[1].find("+48.0%"), std::string::npos);
  EXPECT_NE(rows[2].find("`triad/cpu/n=65536`"), std::string::npos) << rows[2];
  EXPECT_NE(rows[3].find("no-baseline"), std::string::npos) << rows[3];
  EXPECT_NE(rows[4].find("| pass | `copy/cpu/n=1048576` | 800 µs | +1.2% | 5.0% | 10.5 GB/s |"),
            std::string::npos)
      << rows[4];
  EXPECT_NE(rows[5].find("skipped"), std::string::npos) << rows[5];
}

TEST(ReportMarkdown, CountsMachineAndReasons) {
  const std::string md = render_markdown(test::mixed_run());
  EXPECT_EQ(md.rfind("## perfgate: **1 error** · **2 regressed** · 1 no-baseline · 1 pass · 1 skipped\n", 0),
            0u)
      << md;
  EXPECT_NE(md.find("Machine `cpu-test-machine-2t` (Test CPU)"), std::string::npos);
  EXPECT_NE(md.find("commit `0123456789ab` on `main`"), std::string::npos);
  EXPECT_NE(md.find("### Why"), std::string::npos);
  // A pipe in a message would split the table cell or list item's code span.
  EXPECT_NE(md.find("threshold \\| p=0.001"), std::string::npos);
  EXPECT_EQ(md.find("### Breakdown"), std::string::npos);
}

TEST(ReportMarkdown, BreakdownOfStagedCases) {
  RunResult run = test::mixed_run();
  run.cases.push_back(test::staged_case());
  const std::string md = render_markdown(run);
  EXPECT_NE(md.find("### Breakdown of `attention/vulkan/seq=512,d=64`"), std::string::npos) << md;
  EXPECT_NE(md.find("| **scores** | 38.0 µs | 38.0% |"), std::string::npos) << md;
  EXPECT_NE(md.find("Bottleneck: scores: 38% of time"), std::string::npos);
  EXPECT_NE(md.find("18.0 µs launch overhead, GPU busy 85%"), std::string::npos);
}

TEST(ReportMarkdown, EmptyRun) {
  RunResult run;
  run.fingerprint.machine_id = "m";
  const std::string md = render_markdown(run);
  EXPECT_NE(md.find("no cases"), std::string::npos);
  EXPECT_EQ(md.find("| verdict |"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
