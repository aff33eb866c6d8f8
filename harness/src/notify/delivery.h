#pragma once
// Delivers one alert: a few quick attempts, exponential backoff with jitter on connection
// errors, timeouts, 5xx, 408 and 429 (honouring Retry-After up to a cap, so a CI job waits
// seconds, not minutes); other 4xx and refused redirects are final and not retried.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>

#include "notify/alert.h"
#include "notify/signer.h"
#include "notify/transport.h"

namespace perfgate {

struct DeliveryPolicy {
  int max_attempts = 4;
  std::chrono::milliseconds first_backoff{500};
  std::chrono::milliseconds max_backoff{4000};
  std::chrono::seconds max_retry_after{10};  // a longer Retry-After ends the attempts: queued
};

enum class DeliveryStatus {
  delivered,  // 2xx
  rejected,   // the receiver refused this alert (4xx other than 408/429, a refused redirect)
  failed,     // still undeliverable after the attempts: try again later
};

struct DeliveryResult {
  DeliveryStatus status = DeliveryStatus::failed;
  int attempts = 0;
  long http_status = 0;
  std::string detail;  // the last failure or the receiver's answer, safe to print
};

// What delivery needs from the world, replaceable in tests.
struct DeliveryHooks {
  std::function<HttpResponse(const HttpRequest&)> send;
  std::function<void(std::chrono::milliseconds)> sleep;
  std::function<std::int64_t()> now_unix;
  std::function<void(const std::string&)> log;
  std::mt19937_64* random = nullptr;
};

// The headers of one attempt: content type, webhook-id, webhook-timestamp and, with a
// signer, webhook-signature.
HttpRequest webhook_request(const Alert& alert, const WebhookUrl& url, const Signer* signer,
                            std::int64_t timestamp_unix);

// No attempt starts after `deadline`; a wait that would end past it is not taken.
DeliveryResult deliver(const Alert& alert, const WebhookUrl& url, const Signer* signer,
                       const DeliveryPolicy& policy, const DeliveryHooks& hooks,
                       std::chrono::steady_clock::time_point deadline);

}  // namespace perfgate
