#pragma once
// A webhook URL split into what may be shown (scheme, host, port) and what may not (path and
// query: Slack and most receivers carry their token there).
#include <string>
#include <string_view>

namespace perfgate {

class WebhookUrl {
 public:
  // Accepts http:// and https:// URLs with a host. Throws perfgate::Error on anything else; the
  // message shows the value redacted to scheme and host (or "<malformed>"), never the path.
  static WebhookUrl parse(std::string_view text);

  const std::string& full() const { return full_; }  // secret: never print
  const std::string& host() const { return host_; }
  // "https://hooks.slack.com" or "http://127.0.0.1:8080": safe to print.
  std::string origin() const;
  bool is_https() const { return scheme_ == "https"; }
  // A path other than "/" or a query: where receivers keep their token.
  bool carries_token() const { return path_.size() > 1 || !query_.empty(); }
  bool same_origin(const WebhookUrl& other) const { return origin() == other.origin(); }
  // `location` resolved against this URL (a redirect target); throws Error when malformed.
  WebhookUrl resolve(std::string_view location) const;
  // `text` with the URL, its path and its query replaced by "<redacted>".
  std::string scrub(std::string text) const;

 private:
  std::string full_, scheme_, host_, port_, path_, query_;
};

// "scheme://host" of a text that may or may not be a URL, for error messages.
std::string redact_url(std::string_view text);

}  // namespace perfgate
