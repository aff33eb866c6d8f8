#include "report/pr_comment.h"

#include <gtest/gtest.h>

#include <sstream>

#include "perfgate/error.h"
#include "report/report_fixture.h"

namespace perfgate {
namespace {

std::vector<std::string> pr_lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

// The text with every code span (`...` within a line) taken out.
std::string pr_outside_code_spans(const std::string& text) {
  std::string out;
  bool in_code = false;
  for (char c : text) {
    if (c == '`')
      in_code = !in_code;
    else if (c == '\n')
      in_code = false, out += c;
    else if (!in_code)
      out += c;
  }
  return out;
}

TEST(PrComment, MarkerVerdictsWorstFirstGeomeanAndLink) {
  RunResult run = test::mixed_run();
  run.cases.push_back(test::ab_case());
  const std::string body = render_pr_comment(run, {.dashboard_url = "https://perf.example/site/"});
  EXPECT_EQ(body.rfind(std::string(pr_comment_marker) + "\n## perfgate: **1 error** · **3 regressed**", 0),
            0u)
      << body;
  EXPECT_NE(body.find("Machine `cpu-test-machine-2t`"), std::string::npos);
  EXPECT_NE(body.find("geomean latency"), std::string::npos) << body;
  const auto rows = pr_lines_starting(body, "| **");
  ASSERT_GE(rows.size(), 2u);
  EXPECT_NE(rows[0].find("**error**"), std::string::npos) << rows[0];
  EXPECT_NE(body.find("### A/B: base and head builds measured together"), std::string::npos);
  EXPECT_NE(body.find("| 2.000 [1.950, 2.050] | ±5% |"), std::string::npos) << body;
  EXPECT_NE(body.find("### Why"), std::string::npos);
  EXPECT_NE(body.find("\n[This run on the dashboard](https://perf.example/site/index.html#/run/"
                      "20240501T120000Z-4f3a9c)\n"),
            std::string::npos)
      << body;
}

TEST(PrComment, NoLinkWithoutADashboardUrl) {
  const std::string body = render_pr_comment(test::mixed_run());
  EXPECT_EQ(body.find("dashboard"), std::string::npos);
  EXPECT_EQ(body.find("index.html"), std::string::npos);
}

TEST(PrComment, TheLinkEncodesTheRunIdAndRefusesUrlsThatWouldEndIt) {
  EXPECT_EQ(dashboard_run_link("http://h/x", "a b/c)d"), "http://h/x/index.html#/run/a%20b%2Fc%29d");
  for (const char* bad : {"ftp://h", "javascript:alert(1)", "https://h/a b", "https://h/)x", "https://h/<x>",
                          "https://h/\"", "https://h/\n", "https://h/\xC3\xA9"})
    EXPECT_THROW(dashboard_run_link(bad, "r"), Error) << bad;
}

TEST(PrComment, HostileStringsFromTheResultsStayText) {
  RunResult run = test::mixed_run();
  run.fingerprint.machine_id = "m|<b>@all";
  run.branch = "evil`branch\n## heading";
  CaseResult& c = run.cases[1];
  c.id = "copy|x/<script>alert(1)</script>/[x](https://evil.example)/@channel/\n/\x1b[31m";
  c.message = "see [x](https://evil.example) @channel <img src=x>\nline two \x1b";
  const std::string body = render_pr_comment(run);
  // In a code span nothing is HTML, a link or a mention, and the span always closes (no backtick
  // is left in it); everywhere else none of them may stand.
  EXPECT_NE(
      body.find(
          "| `copy\\|x/<script>alert(1)</script>/[x](https://evil.example)/@channel/ /\xE2\x90\x9B[31m` |"),
      std::string::npos)
      << body;
  EXPECT_NE(body.find("`evil'branch ## heading`"), std::string::npos);
  const std::string prose = pr_outside_code_spans(body.substr(body.find('\n')));  // after the marker
  for (const char* raw : {"<", ">", "[x](", "https://", "@channel", "@all", "\x1b", "\n## heading"})
    EXPECT_EQ(prose.find(raw), std::string::npos) << raw << " in " << prose;
  EXPECT_NE(
      body.find(
          "see \\[x\\](https\\://evil.example) @&#8203;channel &lt;img src=x&gt; line two \xE2\x90\x9B"),
      std::string::npos)
      << body;
  // Every table row still has its columns: no pipe from a string splits a cell.
  for (const std::string& row : pr_lines_starting(body, "| ")) {
    int cells = 0;
    for (std::size_t i = 0; i < row.size(); ++i)
      if (row[i] == '|' && (i == 0 || row[i - 1] != '\\')) ++cells;
    EXPECT_TRUE(cells == 9 || cells == 10) << row;  // the verdict table's 8 columns, A/B's 9
  }
}

TEST(PrComment, BoundedWithALineSayingHowManyRowsWereLeftOut) {
  RunResult run = test::mixed_run();
  const CaseResult regressed = run.cases[1];
  run.cases.clear();
  for (int i = 0; i < 3000; ++i) {
    CaseResult c = regressed;
    c.id = "triad/cpu/n=" + std::to_string(i) + "/" + std::string(40, 'x');
    run.cases.push_back(c);
  }
  const std::string body = render_pr_comment(run, {.dashboard_url = "https://perf.example"});
  EXPECT_LE(body.size(), pr_comment_max_bytes);
  EXPECT_GT(body.size(), pr_comment_max_bytes * 3 / 4);
  const std::size_t shown = pr_lines_starting(body, "| **regressed** |").size();
  ASSERT_GT(shown, 0u);
  EXPECT_NE(body.find("_" + std::to_string(3000 - shown) + " of 3000 cases left out"), std::string::npos)
      << shown;
  EXPECT_NE(body.find("reasons left out"), std::string::npos);
  // The link comes last, whatever was left out.
  EXPECT_NE(body.find("[This run on the dashboard](https://perf.example/index.html#/run/"),
            std::string::npos);

  PrCommentOptions tiny;
  tiny.max_bytes = 200;
  EXPECT_THROW(render_pr_comment(run, tiny), Error);
}

}  // namespace
}  // namespace perfgate
