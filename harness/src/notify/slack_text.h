#pragma once
// Slack's one escaping rule for text it formats (mrkdwn and a message's `text`): "&", "<" and ">"
// as "&amp;", "&lt;" and "&gt;" (https://api.slack.com/reference/surfaces/formatting#escaping),
// so text from outside (a commit subject, a case id, a branch) never becomes a mention
// (<!channel>) or a link (<https://...|click me>). Every Slack payload perfgate sends (a run's, a
// change point's, a bisect's) escapes through it.
#include <string>
#include <string_view>

namespace perfgate {

std::string slack_escape(std::string_view text);

// A one-line Slack message: `text` escaped, then a link to the CI job where `ci_url` is an
// http(s) address that cannot break out of Slack's <url|label> form; else no link.
std::string slack_text_with_link(std::string_view text, const std::string& ci_url);

// Whether `url` may be linked: http(s), at most 3000 characters, none of "<>|" or blanks.
bool slack_linkable(const std::string& url);

}  // namespace perfgate
