#include "notify/webhook_sender.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <thread>

#include "perfgate/error.h"

namespace perfgate {

WebhookSender::WebhookSender(const WebhookConfig& config, SenderSettings settings, DeliveryHooks hooks)
    : config_(config), settings_(settings), hooks_(std::move(hooks)), random_(std::random_device{}()) {
  if (!config_.url) throw Error("no webhook URL configured");
  settings_.policy.max_attempts = config_.attempts;
  if (!hooks_.send) {
    TransportOptions options;
    options.connect_timeout = std::chrono::milliseconds(static_cast<long>(config_.connect_timeout_s * 1000));
    options.total_timeout = std::chrono::milliseconds(static_cast<long>(config_.timeout_s * 1000));
    options.ca_bundle = config_.ca_bundle;
#ifdef PERFGATE_VERSION
    options.user_agent = "perfgate/" PERFGATE_VERSION;
#endif
    hooks_.send = [options, deadline = deadline_](const HttpRequest& request) {
      // An attempt never runs past the call's budget (at least 100 ms, to say something useful).
      TransportOptions shortened = options;
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      shortened.total_timeout = std::clamp(left, std::chrono::milliseconds(100), options.total_timeout);
      shortened.connect_timeout = std::min(shortened.connect_timeout, shortened.total_timeout);
      return post(request, shortened);
    };
  }
  if (!hooks_.sleep) hooks_.sleep = [](std::chrono::milliseconds wait) { std::this_thread::sleep_for(wait); };
  if (!hooks_.now_unix) hooks_.now_unix = [] { return static_cast<std::int64_t>(std::time(nullptr)); };
  if (!hooks_.log) hooks_.log = [](const std::string&) {};
  if (hooks_.random == nullptr) hooks_.random = &random_;
}

SendReport WebhookSender::send(const std::optional<Alert>& alert) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long>(config_.budget_s * 1000));
  *deadline_ = deadline;
  const WebhookUrl& url = *config_.url;
  std::optional<Signer> signer;
  if (!config_.secret.empty()) signer.emplace(config_.secret);

  Outbox outbox(config_.outbox, hooks_.log);
  // Durable before the first attempt, and before waiting for the lock: a call stopped while it
  // waits (a CI job's timeout) leaves its alert for the next one.
  if (alert) outbox.put(*alert);
  SendReport report;
  if (!outbox.lock(deadline)) {
    hooks_.log(fmt::format(
        "outbox {} stayed locked by another perfgate notify for this call's whole budget ({} s); {}",
        outbox.dir().string(), config_.budget_s,
        alert ? "alert " + alert->id + " waits there for the next call" : "nothing sent"));
    report.queued = alert ? 1 : 0;
    return report;
  }
  for (const auto& dropped : outbox.prune(settings_.limits, hooks_.now_unix())) {
    hooks_.log(
        fmt::format("outbox: dropped alert {} ({} s old): {}", dropped.id, dropped.age_s, dropped.why));
    ++report.dropped;
  }

  bool receiver_down = false;
  for (const Alert& queued : outbox.pending()) {
    if (receiver_down || std::chrono::steady_clock::now() >= deadline) {
      ++report.queued;
      continue;
    }
    DeliveryResult result =
        deliver(queued, url, signer ? &*signer : nullptr, settings_.policy, hooks_, deadline);
    switch (result.status) {
      case DeliveryStatus::delivered:
        outbox.remove(queued.id);
        ++report.delivered;
        report.delivered_ids.push_back(queued.id);
        hooks_.log(fmt::format("delivered alert {} (run {}) to {}: HTTP {}", queued.id, queued.run_id,
                               url.host(), result.http_status));
        break;
      case DeliveryStatus::rejected: {
        auto kept = outbox.reject(queued);
        ++report.rejected;
        hooks_.log(fmt::format("{} rejected alert {} (run {}), not retried: {}; kept in {}", url.host(),
                               queued.id, queued.run_id, result.detail, kept.string()));
        break;
      }
      case DeliveryStatus::failed:
        ++report.queued;
        receiver_down = true;
        hooks_.log(fmt::format(
            "could not deliver alert {} (run {}) to {} after {} attempt(s): {}; kept in {}", queued.id,
            queued.run_id, url.host(), result.attempts, result.detail, outbox.dir().string()));
        break;
    }
  }
  return report;
}

}  // namespace perfgate
