// Slack's escaping rule, and the alerts that carry text from outside (a bisect's commit subject,
// a change point's case id): no mention, no link but the CI job's.
#include "notify/slack_text.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

TEST(SlackText, EscapesTheThreeCharactersSlackFormats) {
  EXPECT_EQ(slack_escape("<!channel> & <https://evil.example|click me>"),
            "&lt;!channel&gt; &amp; &lt;https://evil.example|click me&gt;");
  EXPECT_EQ(slack_escape("plain *text* `code` é"), "plain *text* `code` é");
}

TEST(SlackText, LinksOnlyACiUrlThatCannotBreakOutOfTheLink) {
  EXPECT_EQ(slack_text_with_link("a < b", "https://ci.example/job/1"),
            "a &lt; b <https://ci.example/job/1|CI job>");
  EXPECT_EQ(slack_text_with_link("x", ""), "x");
  for (const char* url : {"https://ci.example/1|<!channel>", "https://ci.example/1>x", "javascript:alert(1)",
                          "https://ci.example/a b", "ftp://ci.example/1"})
    EXPECT_EQ(slack_text_with_link("x", url), "x") << url;
}

}  // namespace
}  // namespace perfgate
