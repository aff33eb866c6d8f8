#include "notify/webhook_url.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

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

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

// %XX decoded (and '+' as a space in forms): what a receiver that decodes the URL echoes back.
std::string percent_decoded(std::string_view text, bool plus_is_space) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += plus_is_space && text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
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
  if (!host.starts_with('['))
    host = host.substr(0, host.find(':'));
  else
    host = host.substr(0, host.find(']') + 1);
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
  // The URL, its path and its query, and on their own every long path segment and query value
  // (a receiver echoing a token back), each as configured and percent-decoded.
  std::vector<std::string> secrets = {full_, query_};
  if (path_.size() > 1) secrets.push_back(path_);
  const std::string pieces = path_ + "&" + query_;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= pieces.size(); ++i) {
    if (i == pieces.size() || pieces[i] == '/' || pieces[i] == '&' || pieces[i] == '=') {
      if (i - start >= 6) secrets.push_back(pieces.substr(start, i - start));
      start = i + 1;
    }
  }
  for (std::size_t i = 0, raw = secrets.size(); i < raw; ++i) {
    secrets.push_back(percent_decoded(secrets[i], false));
    secrets.push_back(percent_decoded(secrets[i], true));
  }
  // Longest first, so that a whole path goes before its segments do.
  std::sort(secrets.begin(), secrets.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& secret : secrets)
    if (secret.size() >= 6 || secret == query_ || secret == path_) replace_all(text, secret, "<redacted>");
  return text;
}

}  // namespace perfgate
