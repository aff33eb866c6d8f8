#include "notify/webhook_url.h"

#include <curl/curl.h>

#include <cctype>
#include <memory>

#include "perfgate/error.h"

namespace perfgate {
namespace {

struct UrlDeleter {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;

std::string part(CURLU* url, CURLUPart which) {
  char* value = nullptr;
  if (curl_url_get(url, which, &value, 0) != CURLUE_OK || value == nullptr) return "";
  std::string text(value);
  curl_free(value);
  return text;
}

void replace_all(std::string& text, const std::string& what, std::string_view with) {
  if (what.empty()) return;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at))
    text.replace(at, what.size(), with), at += with.size();
}

}  // namespace

std::string redact_url(std::string_view text) {
  // By hand, not with the URL parser: the text may be exactly what the parser refuses.
  const auto sep = text.find("://");
  if (sep == std::string_view::npos || sep == 0) return "<malformed>";
  std::string_view scheme = text.substr(0, sep);
  std::string_view rest = text.substr(sep + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  std::string_view host = rest;
  if (!host.starts_with('[')) host = host.substr(0, host.find(':'));
  else host = host.substr(0, host.find(']') + 1);
  for (char ch : std::string(scheme) + std::string(host))
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '+' || ch == '[' ||
          ch == ']' || ch == ':'))
      return "<malformed>";
  if (host.empty()) return "<malformed>";
  return std::string(scheme) + "://" + std::string(host);
}

WebhookUrl WebhookUrl::parse(std::string_view text) {
  UrlHandle url(curl_url());
  std::string copy(text);
  // Without CURLU_DEFAULT_SCHEME, "hooks.slack.com/x" is refused rather than guessed.
  if (!url || curl_url_set(url.get(), CURLUPART_URL, copy.c_str(), 0) != CURLUE_OK)
    throw Error("webhook URL " + redact_url(text) + ": not a valid URL");
  WebhookUrl result;
  result.scheme_ = part(url.get(), CURLUPART_SCHEME);
  result.host_ = part(url.get(), CURLUPART_HOST);
  result.port_ = part(url.get(), CURLUPART_PORT);
  result.path_ = part(url.get(), CURLUPART_PATH);
  result.query_ = part(url.get(), CURLUPART_QUERY);
  result.full_ = part(url.get(), CURLUPART_URL);
  if (result.scheme_ != "http" && result.scheme_ != "https")
    throw Error("webhook URL " + redact_url(text) + ": scheme must be http or https");
  if (result.host_.empty()) throw Error("webhook URL " + redact_url(text) + ": no host");
  if (!part(url.get(), CURLUPART_USER).empty() || !part(url.get(), CURLUPART_PASSWORD).empty())
    throw Error("webhook URL " + redact_url(text) + ": credentials in the URL are not supported");
  return result;
}

std::string WebhookUrl::origin() const {
  std::string text = scheme_ + "://" + host_;
  if (!port_.empty()) text += ":" + port_;
  return text;
}

WebhookUrl WebhookUrl::resolve(std::string_view location) const {
  UrlHandle url(curl_url());
  std::string copy(location);
  if (!url || curl_url_set(url.get(), CURLUPART_URL, full_.c_str(), 0) != CURLUE_OK ||
      curl_url_set(url.get(), CURLUPART_URL, copy.c_str(), 0) != CURLUE_OK)
    throw Error("redirect to " + redact_url(location) + ": not a valid URL");
  return parse(part(url.get(), CURLUPART_URL));
}

std::string WebhookUrl::scrub(std::string text) const {
  replace_all(text, full_, "<redacted>");
  if (path_.size() > 1) replace_all(text, path_, "/<redacted>");
  replace_all(text, query_, "<redacted>");
  // Tokens may also show up on their own (a receiver echoing one back): scrub every long
  // path segment and query value too.
  std::string pieces = path_ + "&" + query_;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= pieces.size(); ++i) {
    if (i == pieces.size() || pieces[i] == '/' || pieces[i] == '&' || pieces[i] == '=') {
      if (i - start >= 6) replace_all(text, pieces.substr(start, i - start), "<redacted>");
      start = i + 1;
    }
  }
  return text;
}

}  // namespace perfgate
