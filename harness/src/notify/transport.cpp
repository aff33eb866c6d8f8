#include "notify/transport.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <memory>
#include <mutex>

#include "perfgate/error.h"

namespace perfgate {
namespace {

constexpr std::size_t kMaxResponseBytes = 64 * 1024;
constexpr int kMaxRedirects = 3;

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw Error("libcurl initialisation failed");
  });
}

struct EasyDeleter {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct ListDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

struct Captured {
  std::string body;
  std::string retry_after;
  std::string location;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* captured = static_cast<Captured*>(user);
  std::size_t bytes = size * count;
  std::size_t keep = std::min(bytes, kMaxResponseBytes - std::min(kMaxResponseBytes, captured->body.size()));
  captured->body.append(data, keep);
  return bytes;
}

std::string trim(std::string text) {
  auto not_space = [](unsigned char ch) { return !std::isspace(ch); };
  text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
  text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
  return text;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* captured = static_cast<Captured*>(user);
  std::string line(data, size * count);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name == "retry-after") captured->retry_after = trim(line.substr(colon + 1));
    if (name == "location") captured->location = trim(line.substr(colon + 1));
  }
  return size * count;
}

HttpResponse::Failure classify(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT: return HttpResponse::Failure::timeout;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return HttpResponse::Failure::connection;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM: return HttpResponse::Failure::tls;
    default: return HttpResponse::Failure::other;
  }
}

HttpResponse post_once(const WebhookUrl& url, const HttpRequest& request, const TransportOptions& options,
                       std::string& location) {
  std::unique_ptr<CURL, EasyDeleter> curl(curl_easy_init());
  if (!curl) throw Error("libcurl: cannot create a handle");
  std::unique_ptr<curl_slist, ListDeleter> headers;
  for (const auto& [name, value] : request.headers) {
    curl_slist* next = curl_slist_append(headers.get(), (name + ": " + value).c_str());
    if (next == nullptr) throw Error("libcurl: out of memory");
    (void)headers.release();
    headers.reset(next);
  }
  // An empty Expect keeps curl from waiting for "100 Continue" on larger bodies.
  curl_slist* next = curl_slist_append(headers.get(), "Expect:");
  (void)headers.release();
  headers.reset(next);

  Captured captured;
  char error_text[CURL_ERROR_SIZE] = {};
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url.full().c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_USERAGENT, options.user_agent.c_str());
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options.total_timeout.count()));
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!options.ca_bundle.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, options.ca_bundle.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &captured);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &captured);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);

  HttpResponse response;
  CURLcode code = curl_easy_perform(h);
  if (code != CURLE_OK) {
    response.failure = classify(code);
    response.error = url.scrub(error_text[0] != '\0' ? error_text : curl_easy_strerror(code));
    return response;
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
  response.body = url.scrub(std::move(captured.body));
  if (!captured.retry_after.empty())
    response.retry_after =
        parse_retry_after(captured.retry_after, static_cast<std::int64_t>(std::time(nullptr)));
  location = captured.location;
  return response;
}

}  // namespace

std::optional<std::chrono::seconds> parse_retry_after(const std::string& value, std::int64_t now_unix) {
  if (!value.empty() &&
      std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); })) {
    if (value.size() > 9) return std::chrono::seconds(999999999);
    return std::chrono::seconds(std::stoll(value));
  }
  time_t when = curl_getdate(value.c_str(), nullptr);
  if (when < 0) return std::nullopt;
  return std::chrono::seconds(std::max<std::int64_t>(0, static_cast<std::int64_t>(when) - now_unix));
}

HttpResponse post(const HttpRequest& request, const TransportOptions& options) {
  global_init();
  WebhookUrl url = request.url;
  for (int hop = 0;; ++hop) {
    std::string location;
    HttpResponse response = post_once(url, request, options, location);
    bool redirect = response.status >= 300 && response.status < 400;
    if (!redirect) return response;
    response.body.clear();
    response.failure = HttpResponse::Failure::redirect;
    if (location.empty()) {
      response.error = "redirect without a Location";
      return response;
    }
    std::optional<WebhookUrl> target;
    try {
      target = url.resolve(location);
    } catch (const Error&) {
      response.error = "redirect to a malformed location, not followed";
      return response;
    }
    if (!target->same_origin(url)) {
      response.error = "redirect to another host (" + target->origin() + ") not followed";
      return response;
    }
    if (response.status != 307 && response.status != 308) {
      response.error =
          "redirect " + std::to_string(response.status) + " would turn the POST into a GET, not followed";
      return response;
    }
    if (hop + 1 >= kMaxRedirects) {
      response.error = "too many redirects";
      return response;
    }
    url = *target;
  }
}

}  // namespace perfgate
