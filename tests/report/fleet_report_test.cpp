// Several machines in one view: a column per device, cases worst first, and the Markdown and
// HTML pages with one column per machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "report/fleet_html.h"
#include "report/fleet_markdown.h"
#include "report/fleet_view.h"
#include "report/report_fixture.h"
#include "report/xml_check.h"

namespace perfgate {
namespace {

RunResult machine_run(const std::string& machine_id, const std::string& run_id,
                      std::vector<CaseResult> cases) {
  RunResult run = test::mixed_run();
  run.fingerprint.machine_id = machine_id;
  run.fingerprint.device_name = machine_id + " device";
  run.run_id = run_id;
  run.cases = std::move(cases);
  return run;
}

CaseResult judged(const std::string& kernel, double change_pct, Verdict verdict) {
  CaseResult c = test::measured_case(kernel, Params({{"n", 1024}}), 1000, 8192, 0, verdict);
  c.judgements.push_back(test::latency_judgement(change_pct, verdict));
  return c;
}

// Each run as the results file "<run id>.json".
std::vector<DeviceRun> fleet_report_devices(std::vector<RunResult> runs) {
  std::vector<ResultsFile> files;
  for (RunResult& run : runs) files.push_back({run.run_id + ".json", std::move(run)});
  return runs_per_device(std::move(files));
}

std::vector<DeviceRun> three_machines(std::vector<RunResult> more = {}) {
  std::vector<RunResult> runs{
      machine_run("nvidia-h100-80gb-hbm3", "r1",
                  {judged("copy", 1.0, Verdict::pass), judged("triad", 9.0, Verdict::regressed)}),
      machine_run("cpu-amd-epyc-2t", "r2", {judged("copy", -0.5, Verdict::pass)}),
      machine_run("llvmpipe", "r3",
                  {judged("copy", 2.0, Verdict::pass), judged("triad", -7.0, Verdict::improved)})};
  for (RunResult& run : more) runs.push_back(std::move(run));
  return fleet_report_devices(std::move(runs));
}

TEST(FleetView, OneColumnPerMachineIdInOrderAndWorstCasesFirst) {
  const FleetView view = make_fleet_view(three_machines());
  ASSERT_EQ(view.machines.size(), 3u);
  EXPECT_EQ(view.machines[0].fingerprint.machine_id, "cpu-amd-epyc-2t");
  EXPECT_EQ(view.machines[2].fingerprint.machine_id, "nvidia-h100-80gb-hbm3");
  ASSERT_EQ(view.case_ids.size(), 2u);
  EXPECT_EQ(view.case_ids[0], "triad/cpu/n=1024");  // regressed somewhere: first
  EXPECT_EQ(view.cell(0, "triad/cpu/n=1024"), nullptr);
  ASSERT_NE(view.cell(2, "triad/cpu/n=1024"), nullptr);
  EXPECT_EQ(cell_text(view.cell(2, "triad/cpu/n=1024")), "regressed +9.0%");
  EXPECT_EQ(cell_text(view.cell(1, "triad/cpu/n=1024")), "improved -7.0%");
  const auto counts = fleet_counts(view);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0], std::make_pair(Verdict::regressed, 1));
  EXPECT_EQ(counts[2], std::make_pair(Verdict::pass, 3));
}

// Two runners with one GPU model: two columns, told apart by host, and the regression counted
// whichever file came first (it once replaced the other file's case silently).
TEST(FleetView, TwoDevicesOfOneMachineIdAreTwoColumns) {
  for (const bool regressed_first : {true, false}) {
    RunResult other = machine_run("llvmpipe", "r4", {judged("copy", 30.0, Verdict::regressed)});
    other.fingerprint.host_id = "bbbbbbbbbbbb";
    auto runs = three_machines({other});
    if (!regressed_first) std::reverse(runs.begin(), runs.end());
    std::vector<RunResult> reordered;
    for (DeviceRun& d : runs) reordered.push_back(std::move(d.run));
    const FleetView view = make_fleet_view(fleet_report_devices(reordered));
    ASSERT_EQ(view.machines.size(), 4u);
    EXPECT_EQ(view.labels, (std::vector<std::string>{"cpu-amd-epyc-2t", "llvmpipe (host unknown)",
                                                     "llvmpipe (host bbbbbbbb)", "nvidia-h100-80gb-hbm3"}));
    EXPECT_EQ(cell_text(view.cell(1, "copy/cpu/n=1024")), "pass +2.0%");
    EXPECT_EQ(cell_text(view.cell(2, "copy/cpu/n=1024")), "regressed +30.0%");
    EXPECT_EQ(fleet_counts(view)[0], std::make_pair(Verdict::regressed, 2));
    const std::string md = render_fleet_markdown(view);
    EXPECT_NE(
        md.find("| case | `cpu-amd-epyc-2t` | `llvmpipe (host unknown)` | `llvmpipe (host bbbbbbbb)` |"),
        std::string::npos)
        << md;
  }
}

// Cells of one GFM table row: split on pipes that are not escaped.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string current;
  for (std::size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size()) {
      current += row.substr(i, 2);
      ++i;
    } else if (row[i] == '|') {
      out.push_back(current);
      current.clear();
    } else {
      current += row[i];
    }
  }
  return out;
}

TEST(FleetMarkdown, CasesAsRowsMachinesAsColumnsWithResolutions) {
  const std::string md = render_fleet_markdown(make_fleet_view(three_machines()));
  EXPECT_EQ(md.rfind("## perfgate on 3 machines: **1 regressed** · 1 improved · 3 pass", 0), 0u) << md;
  std::istringstream in(md);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const auto header =
      std::find_if(lines.begin(), lines.end(), [](const auto& l) { return l.rfind("| case |", 0) == 0; });
  ASSERT_NE(header, lines.end()) << md;
  EXPECT_EQ(*header, "| case | `cpu-amd-epyc-2t` | `llvmpipe` | `nvidia-h100-80gb-hbm3` |");
  for (auto row = header; row != lines.end() && !row->empty(); ++row)
    EXPECT_EQ(cells(*row).size(), 4u) << *row;
  EXPECT_EQ(*(header + 2), "| *resolution* | *catches >= 5.0%* | *catches >= 5.0%* | *catches >= 5.0%* |");
  EXPECT_EQ(*(header + 3), "| `triad/cpu/n=1024` | - | improved -7.0% | **regressed +9.0%** |");
  EXPECT_NE(md.find("| `llvmpipe` | llvmpipe device | `r3` | 1 improved · 1 pass | catches >= 5.0% |"),
            std::string::npos)
      << md;
}

TEST(FleetHtml, WellFormedWithAColumnPerMachine) {
  const std::string html = render_fleet_html(make_fleet_view(three_machines()));
  // The tables are XHTML-clean (the page's head holds void elements an XML parser rejects).
  for (std::size_t at = html.find("<table>"); at != std::string::npos; at = html.find("<table>", at + 1)) {
    const std::string table = html.substr(at, html.find("</table>", at) + 8 - at);
    EXPECT_NO_THROW(test::parse_xml(table)) << table;
  }
  const test::XmlNode cases =
      test::parse_xml(html.substr(html.find("<table>"), html.find("</table>") + 8 - html.find("<table>")));
  EXPECT_EQ(cases.all("tr").size(), 4u);  // heading, resolutions, 2 cases
  EXPECT_NE(html.find("<th class=\"id\">cpu-amd-epyc-2t</th><th class=\"id\">llvmpipe</th><th "
                      "class=\"id\">nvidia-h100-80gb-hbm3</th>"),
            std::string::npos);
  EXPECT_NE(html.find("<span class=\"chip v-regressed\">regressed</span> <span class=\"worse\">+9.0%</span>"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"missing\">-</td>"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
