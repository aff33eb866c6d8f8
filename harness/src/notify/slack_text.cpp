#include "notify/slack_text.h"

namespace perfgate {

std::string slack_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    if (ch == '&')
      out += "&amp;";
    else if (ch == '<')
      out += "&lt;";
    else if (ch == '>')
      out += "&gt;";
    else
      out += ch;
  }
  return out;
}

bool slack_linkable(const std::string& url) {
  if (url.size() > 3000 || !(url.starts_with("https://") || url.starts_with("http://"))) return false;
  for (const char c : url)
    if (c == '<' || c == '>' || c == '|' || static_cast<unsigned char>(c) <= ' ') return false;
  return true;
}

std::string slack_text_with_link(std::string_view text, const std::string& ci_url) {
  std::string out = slack_escape(text);
  if (slack_linkable(ci_url)) out += " <" + ci_url + "|CI job>";
  return out;
}

}  // namespace perfgate
