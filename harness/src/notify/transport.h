#pragma once
// One HTTP POST with libcurl. TLS peer and host verification are always on (an extra CA
// bundle may be given); redirects are followed only to the same scheme, host and port, and
// only for 307/308, which keep the method and body.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "notify/webhook_url.h"

namespace perfgate {

struct HttpRequest {
  WebhookUrl url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct HttpResponse {
  enum class Failure { none, connection, timeout, tls, redirect, other };
  Failure failure = Failure::none;
  long status = 0;  // 0 when no response came
  std::optional<std::chrono::seconds> retry_after;
  std::string body;   // the first 64 KiB
  std::string error;  // why there is no response; never holds the URL
};

struct TransportOptions {
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds total_timeout{15000};
  std::filesystem::path ca_bundle;  // empty: the system's CAs
  std::string user_agent = "perfgate";
};

HttpResponse post(const HttpRequest& request, const TransportOptions& options);

// "120" or an HTTP-date, as seconds from `now_unix`; std::nullopt when unparsable.
std::optional<std::chrono::seconds> parse_retry_after(const std::string& value, std::int64_t now_unix);

}  // namespace perfgate
