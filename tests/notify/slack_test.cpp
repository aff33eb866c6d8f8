// The Slack payload against Slack's documented Block Kit limits
// (https://api.slack.com/reference/block-kit/blocks): block types and their required fields,
// at most 50 blocks, header plain_text <= 150 characters, section text <= 3000, context
// <= 10 elements, button text <= 75 and url <= 3000, action_id <= 255.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "notify/notify_fixture.h"
#include "notify/payload_slack.h"

namespace perfgate {
namespace {

using nlohmann::json;
using notify_testing::fixture_run;
using notify_testing::judged_case;

std::size_t chars(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char ch : text) n += (ch & 0xC0) != 0x80;
  return n;
}

void check_text_object(const json& text, const std::set<std::string>& types, std::size_t max_chars,
                       std::vector<std::string>& problems, const std::string& where) {
  if (!text.is_object() || !text.contains("type") || !text.contains("text") || !text["text"].is_string()) {
    problems.push_back(where + ": not a text object");
    return;
  }
  if (!types.count(text["type"].get<std::string>()))
    problems.push_back(where + ": text type " + text["type"].dump());
  const auto n = chars(text["text"].get<std::string>());
  if (n == 0 || n > max_chars) problems.push_back(where + ": text of " + std::to_string(n) + " characters");
  for (const auto& [key, value] : text.items())
    if (key != "type" && key != "text" && key != "emoji" && key != "verbatim")
      problems.push_back(where + ": key " + key);
}

// Every problem found; empty when Slack's documented rules hold.
std::vector<std::string> slack_schema_problems(const json& payload) {
  std::vector<std::string> problems;
  if (!payload.contains("text") || !payload["text"].is_string() || payload["text"].get<std::string>().empty())
    problems.push_back("no top-level text (the notification fallback)");
  if (!payload.contains("blocks") || !payload["blocks"].is_array()) {
    problems.push_back("no blocks array");
    return problems;
  }
  const json& blocks = payload["blocks"];
  if (blocks.empty() || blocks.size() > SlackLimits::max_blocks)
    problems.push_back("block count " + std::to_string(blocks.size()));
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const json& block = blocks[i];
    const std::string where = "block " + std::to_string(i);
    const std::string type = block.value("type", "");
    if (block.contains("block_id") && block["block_id"].get<std::string>().size() > 255)
      problems.push_back(where + ": block_id");
    if (type == "header") {
      check_text_object(block["text"], {"plain_text"}, SlackLimits::header_chars, problems, where);
    } else if (type == "section") {
      if (!block.contains("text") && !block.contains("fields"))
        problems.push_back(where + ": section without text or fields");
      if (block.contains("text"))
        check_text_object(block["text"], {"plain_text", "mrkdwn"}, SlackLimits::section_chars, problems,
                          where);
      if (block.contains("fields")) {
        if (block["fields"].size() > 10) problems.push_back(where + ": more than 10 fields");
        for (const auto& field : block["fields"])
          check_text_object(field, {"plain_text", "mrkdwn"}, 2000, problems, where);
      }
    } else if (type == "context") {
      const json& elements = block["elements"];
      if (!elements.is_array() || elements.empty() || elements.size() > SlackLimits::context_elements)
        problems.push_back(where + ": context elements");
      else
        for (const auto& element : elements)
          check_text_object(element, {"plain_text", "mrkdwn"}, 3000, problems, where);
    } else if (type == "divider") {
      if (block.size() != 1) problems.push_back(where + ": divider with fields");
    } else if (type == "actions") {
      const json& elements = block["elements"];
      if (!elements.is_array() || elements.empty() || elements.size() > 25)
        problems.push_back(where + ": actions elements");
      for (const auto& button : elements) {
        if (button.value("type", "") != "button") problems.push_back(where + ": not a button");
        check_text_object(button["text"], {"plain_text"}, SlackLimits::button_chars, problems, where);
        const std::string url = button.value("url", "");
        if (url.empty() || url.size() > SlackLimits::url_chars) problems.push_back(where + ": button url");
        if (button.value("action_id", "").size() > 255) problems.push_back(where + ": action_id");
      }
    } else {
      problems.push_back(where + ": unknown block type '" + type + "'");
    }
  }
  return problems;
}

TEST(NotifySlack, FixtureRunFollowsSlackBlockSchema) {
  const RunResult run = fixture_run();
  const json payload =
      slack_payload(run, {run.commit, run.branch, "https://github.com/acme/k/actions/runs/1"});
  EXPECT_EQ(slack_schema_problems(payload), std::vector<std::string>{}) << payload.dump(2);
  EXPECT_EQ(payload["blocks"][0]["type"], "header");
  EXPECT_EQ(payload["blocks"].back()["type"], "actions");
  EXPECT_EQ(payload["blocks"].back()["elements"][0]["url"], "https://github.com/acme/k/actions/runs/1");
  const std::string text = payload["text"];
  EXPECT_NE(text.find("1 regressed"), std::string::npos) << text;
  EXPECT_NE(text.find("1 improved"), std::string::npos) << text;
}

TEST(NotifySlack, WorstRegressionsComeFirstAndPassesAreLeftOut) {
  RunResult run;
  run.run_id = "r";
  run.cases = {judged_case("small/cpu", Verdict::regressed, 7), judged_case("calm/cpu", Verdict::pass, 1),
               judged_case("huge/cpu", Verdict::regressed, 250),
               judged_case("fast/cpu", Verdict::improved, -40)};
  const json payload = slack_payload(run, {});
  std::string details;
  for (const auto& block : payload["blocks"])
    if (block["type"] == "section") details += block["text"]["text"].get<std::string>() + "\n";
  const auto huge = details.find("huge/cpu"), small = details.find("small/cpu"),
             fast = details.find("fast/cpu");
  ASSERT_NE(huge, std::string::npos);
  ASSERT_NE(small, std::string::npos);
  ASSERT_NE(fast, std::string::npos);
  EXPECT_LT(huge, small);
  EXPECT_LT(small, fast);
  EXPECT_EQ(details.find("calm/cpu"), std::string::npos);
  // No CI URL: no actions block.
  for (const auto& block : payload["blocks"]) EXPECT_NE(block["type"], "actions");
}

// Values read as every other printer shows them (core/units): the same unit, the same digits.
TEST(NotifySlack, ValuesInTheUnitsOfEveryPrinter) {
  RunResult run;
  run.run_id = "r";
  run.cases = {judged_case("slow/cpu", Verdict::regressed, 7)};
  const std::string dumped = slack_payload(run, {}).dump();
  EXPECT_NE(dumped.find("1.00 µs → 1.07 µs"), std::string::npos) << dumped;
}

TEST(NotifySlack, LargeRunsStayWithinTheLimits) {
  RunResult run;
  run.run_id = std::string(400, 'r');
  run.fingerprint.machine_id = std::string(300, 'm');
  for (int i = 0; i < 500; ++i) {
    auto c = judged_case("kernel_" + std::to_string(i) + "/vulkan/" + std::string(200, 'x'),
                         Verdict::regressed, i);
    c.judgements[0].metric = "bandwidth_gbps";
    run.cases.push_back(c);
  }
  CaseResult broken;
  broken.id = "broken/cpu";
  broken.verdict = Verdict::error;
  broken.message = std::string(5000, '<');  // escaped to &lt;: longer still
  run.cases.push_back(broken);
  const json payload =
      slack_payload(run, {"c", std::string(200, 'b'), "https://ci.example.com/" + std::string(4000, 'p')});
  EXPECT_EQ(slack_schema_problems(payload), std::vector<std::string>{});
  EXPECT_LE(payload["blocks"].size(), SlackLimits::max_blocks);
  // The overflow is counted, not dropped silently.
  EXPECT_NE(payload.dump().find("more; see the run"), std::string::npos);
}

TEST(NotifySlack, EscapesMrkdwnControlCharacters) {
  RunResult run;
  run.run_id = "r";
  CaseResult broken;
  broken.id = "a/cpu";
  broken.verdict = Verdict::error;
  broken.message = "<!channel> & <https://evil.example|click>";
  run.cases.push_back(broken);
  const std::string dumped = slack_payload(run, {}).dump();
  EXPECT_EQ(dumped.find("<!channel>"), std::string::npos);
  EXPECT_NE(dumped.find("&lt;!channel&gt; &amp;"), std::string::npos);
}

// The notification's `text` is formatted by Slack too: a hostile branch or machine id escaped there.
TEST(NotifySlack, TheNotificationTextIsEscapedToo) {
  RunResult run;
  run.run_id = "r";
  run.fingerprint.machine_id = "m<!here>";
  const auto payload = slack_payload(run, {"c", "<!channel>", "https://ci.example/1|<!channel>"});
  const std::string text = payload["text"];
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  EXPECT_NE(text.find("m&lt;!here&gt; (&lt;!channel&gt; @ c)"), std::string::npos) << text;
  EXPECT_EQ(payload.dump().find("<!channel>"), std::string::npos) << payload.dump();
}

TEST(NotifySlack, SchemaCheckCatchesViolations) {
  json bad = {{"text", "t"},
              {"blocks",
               {{{"type", "header"}, {"text", {{"type", "mrkdwn"}, {"text", std::string(151, 'h')}}}},
                {{"type", "bogus"}}}}};
  EXPECT_EQ(slack_schema_problems(bad).size(), 3u);
}

}  // namespace
}  // namespace perfgate
