// The alert of a finished bisect: schema perfgate.bisect.v1, the culprit in the text and as
// first_bad, an id derived from the change point (the same for a bisect run again), no steps.
#include "notify/bisect_alert.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace perfgate {
namespace {

BisectOutcome alert_outcome() {
  BisectOutcome o;
  o.case_ids = {"copy/cpu/n=1048576"};
  o.machine_id = "cpu-test-2t";
  o.commits = {{std::string(40, 'a'), "good"},
               {std::string(40, 'b'), "copy: more work"},
               {std::string(40, 'c'), "bad"}};
  o.end = BisectEnd::found;
  BisectStep step;
  step.head = o.commits[1].sha;
  step.base = o.commits[0].sha;
  step.outcome = StepOutcome::slower;
  step.ratio = 1.12;
  step.low = 1.10;
  step.high = 1.14;
  o.steps = {step};
  o.total = step;
  Culprit c;
  c.index = 1;
  c.candidates = {1};
  c.step = step;
  o.culprits = {c};
  o.builds = 3;
  o.expected = ExpectedStep{"cp-0123456789ab", "cpu-test-2t", 11.0, 9.0, 13.0};
  return o;
}

TEST(BisectAlert, NamesTheCulpritOfTheChangePoint) {
  const BisectOutcome o = alert_outcome();
  const Alert alert = make_bisect_alert(o, {}, PayloadFormat::generic, 1000);
  const auto body = nlohmann::json::parse(alert.body);
  EXPECT_EQ(body["schema"], "perfgate.bisect.v1");
  EXPECT_EQ(body["first_bad"], std::string(40, 'b'));
  EXPECT_EQ(body["change_point"]["id"], "cp-0123456789ab");
  EXPECT_FALSE(body.contains("steps"));
  const std::string text = body["text"];
  EXPECT_NE(text.find("change point cp-0123456789ab"), std::string::npos) << text;
  EXPECT_NE(text.find("bbbbbbbbbbbb \"copy: more work\" (+12.0%"), std::string::npos) << text;
  EXPECT_EQ(make_bisect_alert(o, {}, PayloadFormat::generic, 2000).id, alert.id);
  const auto slack = nlohmann::json::parse(make_bisect_alert(o, {}, PayloadFormat::slack, 1000).body);
  EXPECT_EQ(slack["text"], text);
}

// A commit subject is anyone's text: in Slack it is shown, never a mention or a link.
TEST(BisectAlert, SlackShowsAHostileSubjectAsText) {
  BisectOutcome o = alert_outcome();
  o.commits[1].subject = "<!channel> <https://evil.example|click me> & co";
  const auto slack = nlohmann::json::parse(
      make_bisect_alert(o, {.url = "https://ci.example/job/7"}, PayloadFormat::slack, 1000).body);
  const std::string text = slack["text"];
  EXPECT_NE(text.find("\"&lt;!channel&gt; &lt;https://evil.example|click me&gt; &amp; co\""),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("<!channel>"), std::string::npos) << text;
  EXPECT_EQ(text.find("<https://evil"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with(" <https://ci.example/job/7|CI job>")) << text;
}

}  // namespace
}  // namespace perfgate
