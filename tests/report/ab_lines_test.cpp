// An A/B check's base and head builds side by side: in the terminal details and the Markdown.
#include "report/ab_lines.h"

#include <gtest/gtest.h>

#include "report/markdown_printer.h"
#include "report/report_fixture.h"
#include "report/table_printer.h"

namespace perfgate {
namespace {

RunResult ab_run() {
  RunResult run;
  run.cases = {test::ab_case()};
  return run;
}

TEST(AbLines, TerminalShowsBothBuilds) {
  const RunResult run = ab_run();
  const std::string sides = render_ab_sides(run.cases[0]);
  for (const char* part : {"/base/perfgate", "/head/perfgate", "100 µs", "200 µs", "0.1.0", "0.2.0",
                           "aaaaaaaaaaaa", "40 interleaved rounds"})
    EXPECT_NE(sides.find(part), std::string::npos) << part << " missing from\n" << sides;
  // The verdict is the case's own line (report/check_lines.h), not repeated beside the builds.
  EXPECT_EQ(sides.find("regressed"), std::string::npos) << sides;
  EXPECT_NE(render_details(run, {}).find("/base/perfgate"), std::string::npos);
  CaseResult plain = run.cases[0];
  plain.ab.reset();
  EXPECT_EQ(render_ab_sides(plain), "");
}

TEST(AbLines, MarkdownHasAnAbSection) {
  const std::string md = render_markdown(ab_run());
  EXPECT_NE(md.find("### A/B: base and head builds"), std::string::npos) << md;
  EXPECT_NE(md.find("| 100 µs | 200 µs | 2.000 [1.950, 2.050] | ±5% |"), std::string::npos) << md;
  RunResult plain = ab_run();
  plain.cases[0].ab.reset();
  EXPECT_EQ(render_markdown(plain).find("### A/B"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
