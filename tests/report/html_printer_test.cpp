#include "report/html_printer.h"

#include <gtest/gtest.h>

#include <regex>

#include "core/units.h"
#include "report/html_plots.h"
#include "report/report_fixture.h"
#include "report/svg_distribution.h"
#include "report/svg_line_chart.h"
#include "report/svg_roofline.h"
#include "report/xml_check.h"

namespace perfgate {
namespace {

std::vector<std::string> svg_blocks(const std::string& html) {
  std::vector<std::string> blocks;
  for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) {
    const std::size_t end = html.find("</svg>", at);
    EXPECT_NE(end, std::string::npos);
    if (end == std::string::npos) break;
    blocks.push_back(html.substr(at, end + 6 - at));
  }
  return blocks;
}

RunResult matmul_sweep() {
  RunResult run = test::mixed_run();
  run.cases.clear();
  for (std::int64_t tile : {8, 16})
    for (std::int64_t wg : {64, 128, 256})
      run.cases.push_back(test::measured_case("matmul", Params({{"n", 512}, {"tile", tile}, {"wg", wg}}),
                                              1e6 / static_cast<double>(tile) + static_cast<double>(wg) * 100,
                                              3e6, 2.7e8));
  return run;
}

TEST(ReportSvg, PlotsAreWellFormed) {
  const std::string roofline =
      svg::roofline_svg({{"a <b>", 0.5, 12, Verdict::pass}, {"c&d", 30, 150, Verdict::regressed, true}},
                        Peaks{20, 80, 32e6, 200});
  const test::XmlNode root = test::parse_xml(roofline);
  EXPECT_EQ(root.name, "svg");
  EXPECT_EQ(root.attributes.at("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_EQ(root.all("circle").size(), 2u);
  EXPECT_NO_THROW(test::parse_xml(svg::roofline_svg({}, Peaks{})));
  EXPECT_NO_THROW(test::parse_xml(svg::roofline_svg({}, Peaks{25, 0, 0, 0})));

  const std::string dist = svg::distribution_svg(
      {{"baseline", {1, 2, 3, 4, 5}, "#546e7a"}, {"current", {2, 3, 4}, "#c62828"}, {"empty", {}, "#000"}},
      format_duration_ns, "latency", "x");
  EXPECT_NO_THROW(test::parse_xml(dist)) << dist;

  svg::LineChartAxes axes;
  axes.x_labels = {"05-01 12:00", "05-02 12:00"};
  const std::string trend =
      svg::line_chart_svg({{"copy", {{0, 10, "a", ""}, {1, 12, "b", "#c62828"}}}}, axes, "t");
  EXPECT_NO_THROW(test::parse_xml(trend)) << trend;
}

TEST(ReportSvg, LogTicksAreDecadesInsideTheDomain) {
  const svg::Scale s{0.01, 1000, 0, 100, true};
  EXPECT_EQ(s.ticks(), (std::vector<double>{0.01, 0.1, 1, 10, 100, 1000}));
  EXPECT_DOUBLE_EQ(s(0.01), 0);
  EXPECT_DOUBLE_EQ(s(1000), 100);
  EXPECT_NEAR(s(1), 40, 1e-9);
}

TEST(ReportHtml, SelfContainedPageWithEverySection) {
  RunResult run = test::mixed_run();
  run.cases.push_back(test::staged_case());
  RunResult baseline = run;
  baseline.run_id = "baseline-run";
  HtmlInputs inputs;
  inputs.baseline = &baseline;
  inputs.history["copy/cpu/n=1048576"] = {{"cpu-test-machine-2t",
                                           "r1",
                                           "2024-04-30T12:00:00Z",
                                           "aaaa",
                                           "main",
                                           "copy/cpu/n=1048576",
                                           Verdict::pass,
                                           {{"latency_ns", 790000}}},
                                          {"cpu-test-machine-2t",
                                           "r2",
                                           "2024-05-01T12:00:00Z",
                                           "bbbb",
                                           "main",
                                           "copy/cpu/n=1048576",
                                           Verdict::pass,
                                           {{"latency_ns", 800000}}}};
  const std::string html = render_html(run, inputs);

  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* id :
       {"verdicts", "machine", "roofline", "distributions", "sweeps", "history", "breakdown"})
    EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  // Nothing to fetch, nothing to run.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_FALSE(std::regex_search(html, std::regex("href=\"(https?:)?//")));
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  // Worst first: the error row comes before the regressions, the pass after them.
  const auto error_at = html.find("<td class=\"id\">reduce/cpu/n=4096");
  const auto regressed_at = html.find("<td class=\"id\">triad/cpu/n=1048576");
  const auto pass_at = html.find("<td class=\"id\">copy/cpu/n=1048576");
  EXPECT_LT(error_at, regressed_at);
  EXPECT_LT(regressed_at, pass_at);
  EXPECT_NE(html.find("&lt;&amp;&quot;&#39;&gt;"), std::string::npos);  // the error message, escaped
  EXPECT_NE(html.find("Bottleneck: <strong>scores: 38% of time"), std::string::npos);
  EXPECT_NE(html.find("fma_peak"), std::string::npos);
  EXPECT_NE(html.find("baseline-run"), std::string::npos);

  const auto blocks = svg_blocks(html);
  EXPECT_NE(html.find("triad/cpu: latency by n"), std::string::npos);
  // roofline + 5 distributions (cases with samples) + the triad sweep over n + 1 trend.
  EXPECT_EQ(blocks.size(), 8u);
  for (const auto& block : blocks) EXPECT_NO_THROW(test::parse_xml(block)) << block.substr(0, 200);
}

TEST(ReportHtml, SweepsByOneAxisWithALinePerOtherSetting) {
  const auto sweeps = html::find_sweeps(matmul_sweep());
  ASSERT_EQ(sweeps.size(), 2u);  // by tile (one line per wg) and by wg (one line per tile)
  EXPECT_EQ(sweeps[0].axis, "tile");
  EXPECT_EQ(sweeps[0].lines.size(), 3u);
  EXPECT_EQ(sweeps[0].lines[0].others, "n=512,wg=128");
  EXPECT_EQ(sweeps[1].axis, "wg");
  ASSERT_EQ(sweeps[1].lines.size(), 2u);
  EXPECT_EQ(sweeps[1].lines[0].others, "n=512,tile=16");
  ASSERT_EQ(sweeps[1].lines[1].points.size(), 3u);
  EXPECT_EQ(sweeps[1].lines[1].points[0].first, 64);

  const std::string html = render_html(matmul_sweep());
  EXPECT_NE(html.find("matmul/cpu: latency by wg"), std::string::npos);
  EXPECT_NE(html.find("matmul/cpu: latency by tile"), std::string::npos);
  for (const auto& block : svg_blocks(html)) EXPECT_NO_THROW(test::parse_xml(block));
}

TEST(ReportHtml, EmptyRunStillRenders) {
  RunResult run;
  run.fingerprint.machine_id = "m";
  const std::string html = render_html(run);
  EXPECT_NE(html.find("no cases"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
