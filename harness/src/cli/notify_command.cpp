// `perfgate notify [RESULTS.json]`: wiring only. The notify layer reads its configuration,
// builds the alert and delivers it; this file maps the outcome to output and an exit code.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/device_runs.h"
#include "core/terminal_text.h"
#include "notify/alert.h"
#include "notify/config.h"
#include "notify/fleet_alert.h"
#include "notify/signer.h"
#include "notify/webhook_sender.h"
#include "perfgate/error.h"
#include "report/next_steps.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

// Exit codes of `perfgate notify` (docs/webhooks.md).
constexpr int kDelivered = 0;  // delivered, or nothing to send
constexpr int kRejected = 2;   // bad input, or the receiver refused an alert (4xx)
constexpr int kQueued = 3;     // kept in the outbox, not delivered: the next notify sends it

// Its lines quote a receiver's reply and the run's names: shown as text (core/terminal_text.h).
void say_notify(const std::string& line) { std::cerr << "perfgate notify: " << terminal_text(line) << "\n"; }

}  // namespace

int notify_main(const NotifyFlags& flags) {
  const Environment env = process_environment();
  const WebhookConfig config = load_webhook_config(env, say_notify);
  const auto now_unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();

  std::optional<Alert> alert;
  if (!flags.results.empty()) {
    // Several results (one per machine of a pipeline): one alert for all of them.
    // Every file counts: one run per device, files of one device merged (core/device_runs.h).
    std::vector<ResultsFile> files;
    for (const auto& path : flags.results) files.push_back({path, read_results(path)});
    const std::vector<DeviceRun> devices = runs_per_device(std::move(files));
    const bool wanted = should_send(devices, config.send);
    Alert built = devices.size() == 1
                      ? make_alert(devices[0].run, ci_context(env), config.format, now_unix_ms)
                      : make_fleet_alert(devices, ci_context(env), config.format, now_unix_ms);
    if (flags.dry_run) {
      std::cout << nlohmann::json::parse(built.body).dump(2) << "\n";
      if (!config.secret.empty()) Signer check(config.secret);  // a bad secret is bad input
      say_notify(fmt::format("dry run: alert {} ({} format) {} under policy '{}'; would go to {}{}", built.id,
                             to_string(config.format), wanted ? "would be sent" : "would not be sent",
                             to_string(config.send),
                             config.url ? config.url->origin() : "<no webhook configured>",
                             config.secret.empty() ? ", unsigned" : ", signed"));
      return kDelivered;
    }
    if (wanted)
      alert = std::move(built);
    else
      say_notify(
          fmt::format("run {}: nothing to send under policy '{}'", built.run_id, to_string(config.send)));
  } else if (flags.dry_run) {
    throw perfgate::Error("--dry-run needs a RESULTS.json to build the payload from");
  }

  if (!config.url) {
    say_notify("no webhook configured (PERFGATE_WEBHOOK_URL or PERFGATE_WEBHOOK_CONFIG): nothing sent");
    return kDelivered;
  }
  if (config.secret.empty() && config.format == PayloadFormat::generic)
    say_notify("PERFGATE_WEBHOOK_SECRET is not set: deliveries are unsigned");

  WebhookSender sender(config, {}, {.log = say_notify});
  const SendReport report = sender.send(alert);
  std::cout << fmt::format(
      "notify {}: {} delivered, {} queued, {} rejected{}\n", config.url->host(), report.delivered,
      report.queued, report.rejected,
      report.dropped > 0 ? fmt::format(", {} dropped by the outbox limits", report.dropped) : "");
  if (report.rejected > 0) return kRejected;
  if (report.queued > 0) {
    say_notify(fmt::format("{} alert(s) wait in {}; the next `{} notify` sends them", report.queued,
                           config.outbox.string(), shell_word(flags.program)));
    return kQueued;
  }
  return kDelivered;
}

}  // namespace perfgate
