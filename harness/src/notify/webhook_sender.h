#pragma once
// One `perfgate notify`: what waits in the outbox goes first (oldest first), then this run's
// alert. Every alert is written to the outbox before its first attempt and removed once
// delivered, so a crash or an outage loses nothing. After one alert fails, the others wait
// for the next call instead of each running through its own retries.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "notify/alert.h"
#include "notify/config.h"
#include "notify/delivery.h"
#include "notify/outbox.h"

namespace perfgate {

struct SendReport {
  int delivered = 0;
  int rejected = 0;  // refused by the receiver, kept in the outbox's rejected/ folder
  int queued = 0;    // still in the outbox, sent by the next call
  int dropped = 0;   // removed by the outbox bounds
  std::vector<std::string> delivered_ids;  // the alerts delivered, this call's and the outbox's
};

struct SenderSettings {
  DeliveryPolicy policy;
  OutboxLimits limits;
};

class WebhookSender {
 public:
  // `config.url` must be set. `hooks.send`, `sleep`, `now_unix` default to the real ones.
  WebhookSender(const WebhookConfig& config, SenderSettings settings, DeliveryHooks hooks);

  SendReport send(const std::optional<Alert>& alert);

 private:
  WebhookConfig config_;
  SenderSettings settings_;
  DeliveryHooks hooks_;
  std::mt19937_64 random_;
  // The end of the current send() call's budget; the transport shortens an attempt to it.
  std::shared_ptr<std::chrono::steady_clock::time_point> deadline_ =
      std::make_shared<std::chrono::steady_clock::time_point>();
};

}  // namespace perfgate
