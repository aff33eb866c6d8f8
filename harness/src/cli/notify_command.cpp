// `perfgate notify [RESULTS.json]`: wiring only. The notify layer reads its configuration,
// builds the alert and delivers it; this file maps the outcome to output and an exit code.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "notify/alert.h"
#include "notify/config.h"
#include "notify/fleet_alert.h"
#include "notify/signer.h"
#include "notify/webhook_sender.h"
#include "perfgate/error.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

// Exit codes of `perfgate notify` (docs/webhooks.md).
constexpr int kDelivered = 0;  // delivered, or nothing to send
constexpr int kRejected = 2;   // bad input, or the receiver refused an alert (4xx)
constexpr int kQueued = 3;     // kept in the outbox, not delivered: the next notify sends it

constexpr const char* kFooter =
    R"(Configuration (environment, or a YAML file named by PERFGATE_WEBHOOK_CONFIG):
  PERFGATE_WEBHOOK_URL        where alerts go (never printed: logs show the host only)
  PERFGATE_WEBHOOK_SECRET     whsec_<base64> Standard Webhooks signing secret
  PERFGATE_WEBHOOK_FORMAT     generic (default) | slack
  PERFGATE_WEBHOOK_SEND       regressions (default) | deltas | always
  PERFGATE_WEBHOOK_CA_BUNDLE  extra CA bundle (TLS is always verified)
  PERFGATE_WEBHOOK_TIMEOUT_S, PERFGATE_WEBHOOK_CONNECT_TIMEOUT_S, PERFGATE_WEBHOOK_ATTEMPTS
  PERFGATE_OUTBOX             undelivered alerts (default $XDG_CACHE_HOME/perfgate/outbox)
Exit codes: 0 delivered or nothing to send; 2 bad input or an alert refused by the receiver;
3 queued in the outbox, not delivered (the next `perfgate notify` sends it).
See docs/webhooks.md.)";

void say(const std::string& line) { std::cerr << "perfgate notify: " << line << "\n"; }

int notify(const std::vector<std::string>& results_paths, bool dry_run) {
  const Environment env = process_environment();
  const WebhookConfig config = load_webhook_config(env, say);
  const auto now_unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();

  std::optional<Alert> alert;
  if (!results_paths.empty()) {
    // Several results (one per machine of a pipeline): one alert for all of them.
    std::vector<RunResult> runs;
    for (const auto& path : results_paths) runs.push_back(read_results(path));
    const bool wanted = should_send(runs, config.send);
    Alert built = runs.size() == 1 ? make_alert(runs[0], ci_context(env), config.format, now_unix_ms)
                                   : make_fleet_alert(runs, ci_context(env), config.format, now_unix_ms);
    if (dry_run) {
      std::cout << nlohmann::json::parse(built.body).dump(2) << "\n";
      if (!config.secret.empty()) Signer check(config.secret);  // a bad secret is bad input
      say(fmt::format("dry run: alert {} ({} format) {} under policy '{}'; would go to {}{}", built.id,
                      to_string(config.format), wanted ? "would be sent" : "would not be sent",
                      to_string(config.send), config.url ? config.url->origin() : "<no webhook configured>",
                      config.secret.empty() ? ", unsigned" : ", signed"));
      return kDelivered;
    }
    if (wanted)
      alert = std::move(built);
    else
      say(fmt::format("run {}: nothing to send under policy '{}'", built.run_id, to_string(config.send)));
  } else if (dry_run) {
    throw perfgate::Error("--dry-run needs a RESULTS.json to build the payload from");
  }

  if (!config.url) {
    say("no webhook configured (PERFGATE_WEBHOOK_URL or PERFGATE_WEBHOOK_CONFIG): nothing sent");
    return kDelivered;
  }
  if (config.secret.empty() && config.format == PayloadFormat::generic)
    say("PERFGATE_WEBHOOK_SECRET is not set: deliveries are unsigned");

  WebhookSender sender(config, {}, {.log = say});
  const SendReport report = sender.send(alert);
  std::cout << fmt::format(
      "notify {}: {} delivered, {} queued, {} rejected{}\n", config.url->host(), report.delivered,
      report.queued, report.rejected,
      report.dropped > 0 ? fmt::format(", {} dropped by the outbox limits", report.dropped) : "");
  if (report.rejected > 0) return kRejected;
  if (report.queued > 0) {
    say(fmt::format("{} alert(s) wait in {}; the next `perfgate notify` sends them", report.queued,
                    config.outbox.string()));
    return kQueued;
  }
  return kDelivered;
}

}  // namespace

void add_notify_command(CLI::App& app, Context& context) {
  auto* command = app.add_subcommand(
      "notify", "Post a run's verdicts and deltas to the webhook; first delivers what waits in the outbox");
  auto results = std::make_shared<std::vector<std::string>>();
  auto dry_run = std::make_shared<bool>(false);
  command->add_option("RESULTS.json", *results,
                      "results of a run (perfgate ... --json FILE, or a results folder); several (one per "
                      "machine of a pipeline) make one combined alert");
  command->add_flag("--dry-run", *dry_run, "print the payload that would be sent; send nothing");
  command->footer(kFooter);
  command->callback([&context, results, dry_run] { context.exit_code = notify(*results, *dry_run); });
}

}  // namespace perfgate
