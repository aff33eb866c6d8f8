// A change point's Slack alert names its case, which a history line gives as any text: shown as
// text (notify/slack_text.h), never a mention or a link.
#include "notify/change_point_alert.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace perfgate {
namespace {

TEST(ChangePointAlert, SlackShowsAHostileCaseIdAsText) {
  CaseHistory history;
  history.machine_id = "cpu-test-2t";
  history.case_id = "<!channel><https://evil.example|click me>";
  history.metric = "latency_ns";
  HistoryChange change;
  change.id = "cp-0123456789ab";
  change.step.magnitude_pct = 10;
  change.step.low_pct = 8;
  change.step.high_pct = 12;
  change.commit_before = std::string(40, 'a');
  change.commit_after = std::string(40, 'b');
  change.regression = true;
  const auto slack =
      nlohmann::json::parse(make_change_point_alert(history, change, {}, PayloadFormat::slack, 1000).body);
  const std::string text = slack["text"];
  EXPECT_NE(text.find("perfgate: &lt;!channel&gt;&lt;https://evil.example|click me&gt; on cpu-test-2t"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  // The generic payload is data, not formatted text: the case id as it is.
  const auto generic =
      nlohmann::json::parse(make_change_point_alert(history, change, {}, PayloadFormat::generic, 1000).body);
  EXPECT_EQ(generic["case"], history.case_id);
}

}  // namespace
}  // namespace perfgate
