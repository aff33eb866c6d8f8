#include "report/junit_printer.h"

#include <gtest/gtest.h>

#include "report/report_fixture.h"
#include "report/xml_check.h"

namespace perfgate {
namespace {

// The case's "name: value" lines of <system-out>.
std::map<std::string, std::string> properties(const test::XmlNode& testcase) {
  std::map<std::string, std::string> out;
  const auto* text = testcase.first("system-out");
  if (!text) return out;
  std::size_t start = 0;
  while (start < text->text.size()) {
    std::size_t end = text->text.find('\n', start);
    if (end == std::string::npos) end = text->text.size();
    const std::string row = text->text.substr(start, end - start);
    if (auto colon = row.find(": "); colon != std::string::npos) out[row.substr(0, colon)] = row.substr(colon + 2);
    start = end + 1;
  }
  return out;
}

const test::XmlNode* testcase_named(const test::XmlNode& suite, const std::string& id) {
  for (const auto* c : suite.all("testcase"))
    if (c->attributes.at("name") == id) return c;
  return nullptr;
}

TEST(ReportJunit, WellFormedWithOneTestcasePerCase) {
  const RunResult run = test::mixed_run();
  const test::XmlNode root = test::parse_xml(render_junit(run));
  EXPECT_EQ(root.name, "testsuites");
  EXPECT_EQ(root.attributes.at("tests"), "6");
  EXPECT_EQ(root.attributes.at("failures"), "3");
  EXPECT_EQ(root.attributes.count("skipped"), 0u);  // not allowed on <testsuites>
  const auto suites = root.all("testsuite");
  ASSERT_EQ(suites.size(), 1u);
  EXPECT_EQ(suites[0]->attributes.at("skipped"), "2");
  EXPECT_EQ(suites[0]->attributes.at("name"), "perfgate.cpu-test-machine-2t");
  EXPECT_EQ(suites[0]->all("testcase").size(), run.cases.size());
  for (const auto& c : run.cases) EXPECT_TRUE(testcase_named(*suites[0], c.id)) << c.id;
}

TEST(ReportJunit, FailuresSkipsAndProperties) {
  const test::XmlNode root = test::parse_xml(render_junit(test::mixed_run()));
  const test::XmlNode& suite = *root.first("testsuite");

  const auto* regressed = testcase_named(suite, "triad/cpu/n=1048576");
  ASSERT_TRUE(regressed);
  ASSERT_TRUE(regressed->first("failure"));
  EXPECT_EQ(regressed->first("failure")->attributes.at("type"), "regressed");
  EXPECT_EQ(regressed->attributes.at("classname"), "triad.cpu");
  auto props = properties(*regressed);
  EXPECT_EQ(props["verdict"], "regressed");
  EXPECT_EQ(props["latency_ns.change_pct"], "48");
  EXPECT_EQ(props["latency_ns.threshold_pct"], "5");
  EXPECT_EQ(props["latency_ns.median"], "190000");
  EXPECT_EQ(props["latency_ns.samples"], "21");
  EXPECT_FALSE(props["bandwidth_gbps.median"].empty());

  const auto* error = testcase_named(suite, "reduce/cpu/n=4096");
  ASSERT_TRUE(error && error->first("failure"));
  EXPECT_EQ(error->first("failure")->attributes.at("type"), "error");
  // Escaped on the way out, decoded by the parser: the message survives intact.
  EXPECT_EQ(error->first("failure")->attributes.at("message"),
            "wrong result: rel L2 error 0.5 > 1e-6 <&\"'>");

  for (const char* id : {"copy/vulkan/n=4096", "fma_peak/cpu/n=16384,iters=1024"}) {
    const auto* c = testcase_named(suite, id);
    ASSERT_TRUE(c) << id;
    EXPECT_TRUE(c->first("skipped")) << id;
    EXPECT_FALSE(c->first("failure")) << id;
  }
  const auto* pass = testcase_named(suite, "copy/cpu/n=1048576");
  ASSERT_TRUE(pass);
  EXPECT_FALSE(pass->first("failure"));
  EXPECT_FALSE(pass->first("skipped"));
  EXPECT_EQ(properties(*pass)["verdict"], "pass");
  EXPECT_EQ(properties(*pass)["machine_id"], "cpu-test-machine-2t");
}

TEST(ReportJunit, ControlCharactersCannotBreakTheDocument) {
  RunResult run = test::mixed_run();
  run.cases[0].message = std::string("bad\x01\x1b[31mbytes") + "\n]]>";
  EXPECT_NO_THROW(test::parse_xml(render_junit(run)));
}

}  // namespace

// The Jenkins xUnit JUnit schema: times match [0-9]*(.[0-9]{0,3})?, a <testcase> has no
// <properties>, <testsuites> no `skipped`.
TEST(ReportJunit, TimesAndElementsTheSchemaAllows) {
  const test::XmlNode root = test::parse_xml(render_junit(test::mixed_run()));
  auto three_decimals = [](const std::string& time) {
    const auto dot = time.find('.');
    return !time.empty() && (dot == std::string::npos || time.size() - dot - 1 <= 3) &&
           time.find_first_not_of("0123456789.") == std::string::npos;
  };
  EXPECT_TRUE(three_decimals(root.attributes.at("time"))) << root.attributes.at("time");
  const test::XmlNode& suite = *root.first("testsuite");
  EXPECT_TRUE(three_decimals(suite.attributes.at("time"))) << suite.attributes.at("time");
  for (const auto* c : suite.all("testcase")) {
    EXPECT_TRUE(three_decimals(c->attributes.at("time"))) << c->attributes.at("time");
    EXPECT_FALSE(c->first("properties")) << c->attributes.at("name");
  }
}

}  // namespace perfgate
