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

bool same_letter(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

bool word_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; }

// Every occurrence of `what` in `text`, letters in any case (a receiver may write %2f for %2F),
// replaced by `with`. A short `what` only where it stands as a word of its own, so that a token
// of one or two characters does not take every letter of the message with it.
void replace_all(std::string& text, const std::string& what, std::string_view with) {
  if (what.empty()) return;
  const bool whole_word = what.size() < 6;
  for (auto at = text.begin();;) {
    at = std::search(at, text.end(), what.begin(), what.end(), same_letter);
    if (at == text.end()) return;
    const auto end = at + static_cast<std::ptrdiff_t>(what.size());
    if (whole_word && ((at != text.begin() && word_char(at[-1])) || (end != text.end() && word_char(*end)))) {
      ++at;
      continue;
    }
    const auto offset = at - text.begin();
    text.replace(at, end, with);
    at = text.begin() + offset + static_cast<std::ptrdiff_t>(with.size());
  }
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

// `text` with every byte outside the unreserved characters (RFC 3986) and `keep` as %XX; with
// `every_byte`, letters and digits too (a receiver that normalises what it echoes).
std::string percent_encoded(std::string_view text, std::string_view keep, bool every_byte = false) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (!every_byte && (std::isalnum(byte) || ch == '-' || ch == '.' || ch == '_' || ch == '~' ||
                        keep.find(ch) != std::string_view::npos)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

// `text` with every `what` replaced by `with`, case and neighbours as they come.
std::string with_each(std::string text, char what, std::string_view with) {
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, 1, with);
  return text;
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
  // Secret: the URL, its path and query, each path segment and query value (of any length), and
  // each part of those between separators ("ABCD/EFGH" in a value, decoded); each as written,
  // percent-decoded, re-encoded (reserved characters only, or every character) and escaped as a
  // receiver's JSON ("\/") or HTML ("&#x2F;") might echo it.
  std::vector<std::string> raw = {full_, query_};
  if (path_.size() > 1) raw.push_back(path_);
  if (!query_.empty()) raw.push_back(path_ + "?" + query_);
  auto split = [&raw](const std::string& whole, std::string_view separators) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= whole.size(); ++i)
      if (i == whole.size() || separators.find(whole[i]) != std::string_view::npos) {
        if (i > start) raw.push_back(whole.substr(start, i - start));
        start = i + 1;
      }
  };
  constexpr std::string_view kSeparators = "/?&=;:,+ .";
  split(path_, "/");
  split(percent_decoded(path_, false), kSeparators);
  split(query_, "&");     // key=value pairs
  std::size_t start = 0;  // each value, and the parts of it decoded
  for (std::size_t i = 0; i <= query_.size(); ++i)
    if (i == query_.size() || query_[i] == '&') {
      const std::string pair = query_.substr(start, i - start);
      const std::string value = pair.substr(pair.find('=') == std::string::npos ? 0 : pair.find('=') + 1);
      if (!value.empty()) raw.push_back(value);
      split(percent_decoded(value, true), kSeparators);
      start = i + 1;
    }
  std::vector<std::string> secrets;
  for (const auto& piece : raw) {
    const std::string decoded = percent_decoded(piece, false);
    for (const std::string& form :
         {piece, decoded, percent_decoded(piece, true), percent_encoded(decoded, "/"),
          percent_encoded(decoded, ""), percent_encoded(decoded, "", true)}) {
      secrets.push_back(form);
      secrets.push_back(with_each(form, '/', "\\/"));
      secrets.push_back(with_each(form, '/', "&#x2F;"));
    }
  }
  // Longest first, so that a whole path goes before its segments do.
  std::sort(secrets.begin(), secrets.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  secrets.erase(std::unique(secrets.begin(), secrets.end()), secrets.end());
  for (const auto& secret : secrets) replace_all(text, secret, "<redacted>");
  return text;
}

}  // namespace perfgate
