#include "notify/delivery.h"

#include <fmt/format.h>

#include <algorithm>

namespace perfgate {
namespace {

constexpr std::size_t kDetailChars = 500;

bool retryable_status(long status) { return status >= 500 || status == 408 || status == 429; }

std::string describe(const HttpResponse& response) {
  if (response.status == 0) return response.error;
  std::string text = fmt::format("HTTP {}", response.status);
  std::string body = response.body.substr(0, kDetailChars);
  std::replace(body.begin(), body.end(), '\n', ' ');
  if (!body.empty()) text += ": " + body;
  if (!response.error.empty()) text += " (" + response.error + ")";
  return text;
}

// Full jitter over the upper half: the wait is in [backoff/2, backoff], backoff doubling from
// `first_backoff` up to `max_backoff`.
std::chrono::milliseconds backoff_for(int retry, const DeliveryPolicy& policy, std::mt19937_64* random) {
  auto backoff = policy.first_backoff;
  for (int i = 0; i < retry && backoff < policy.max_backoff; ++i) backoff *= 2;
  backoff = std::min(backoff, policy.max_backoff);
  if (random == nullptr) return backoff;
  std::uniform_int_distribution<std::int64_t> jitter(backoff.count() / 2, backoff.count());
  return std::chrono::milliseconds(jitter(*random));
}

}  // namespace

HttpRequest webhook_request(const Alert& alert, const WebhookUrl& url, const Signer* signer,
                            std::int64_t timestamp_unix) {
  HttpRequest request{url, {}, alert.body};
  request.headers = {{"Content-Type", "application/json"},
                     {"webhook-id", alert.id},
                     {"webhook-timestamp", std::to_string(timestamp_unix)}};
  if (signer != nullptr)
    request.headers.emplace_back("webhook-signature", signer->sign(alert.id, timestamp_unix, alert.body));
  return request;
}

DeliveryResult deliver(const Alert& alert, const WebhookUrl& url, const Signer* signer,
                       const DeliveryPolicy& policy, const DeliveryHooks& hooks,
                       std::chrono::steady_clock::time_point deadline) {
  DeliveryResult result;
  for (int attempt = 1; attempt <= policy.max_attempts; ++attempt) {
    // A fresh timestamp per attempt: receivers reject old ones (5 minutes by the spec's advice).
    HttpResponse response = hooks.send(webhook_request(alert, url, signer, hooks.now_unix()));
    result.attempts = attempt;
    result.http_status = response.status;
    result.detail = describe(response);
    if (response.failure == HttpResponse::Failure::none && response.status >= 200 && response.status < 300) {
      result.status = DeliveryStatus::delivered;
      return result;
    }
    if (response.failure == HttpResponse::Failure::redirect ||
        (response.failure == HttpResponse::Failure::none && !retryable_status(response.status))) {
      result.status = DeliveryStatus::rejected;
      return result;
    }
    // TLS failures (an unknown CA, a wrong host name) do not heal within seconds.
    if (response.failure == HttpResponse::Failure::tls || response.failure == HttpResponse::Failure::other)
      break;
    if (attempt == policy.max_attempts) break;

    std::chrono::milliseconds wait = backoff_for(attempt - 1, policy, hooks.random);
    if (response.retry_after) {
      if (*response.retry_after > policy.max_retry_after) {
        hooks.log(fmt::format(
            "{}: asks to retry after {} s, longer than this call waits; keeping the alert for later",
            url.origin(), response.retry_after->count()));
        break;
      }
      wait = std::max(wait, std::chrono::duration_cast<std::chrono::milliseconds>(*response.retry_after));
    }
    if (std::chrono::steady_clock::now() + wait > deadline) {
      hooks.log(fmt::format("{}: {}; out of time for retries", url.origin(), result.detail));
      break;
    }
    hooks.log(fmt::format("{}: {}; retrying in {:.1f} s (attempt {} of {})", url.origin(), result.detail,
                          static_cast<double>(wait.count()) / 1000.0, attempt + 1, policy.max_attempts));
    hooks.sleep(wait);
  }
  result.status = DeliveryStatus::failed;
  return result;
}

}  // namespace perfgate
