#pragma once
// Where alerts go and how: read once from the environment (or a YAML file outside the
// repository named by PERFGATE_WEBHOOK_CONFIG). The notify layer reads environment variables
// here and nowhere else.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "notify/webhook_url.h"

namespace perfgate {

enum class PayloadFormat { generic, slack };
// regressions: a case regressed or failed; deltas: any case past its threshold (regressed,
// improved, inconclusive) or failed; always: every run.
enum class SendPolicy { regressions, deltas, always };

std::string_view to_string(PayloadFormat format);
std::string_view to_string(SendPolicy policy);

// Looks a variable up; std::nullopt when unset or empty.
using Environment = std::function<std::optional<std::string>(std::string_view name)>;
Environment process_environment();

// The variables holding the webhook's secrets (its address, which posts to the channel, and the
// signing key). Only this process sends alerts: a child perfgate starts (a build command, a
// bisected commit's binary, a measuring child) never gets them (cli/child_process.h).
inline constexpr const char* kWebhookSecretVariables[] = {"PERFGATE_WEBHOOK_URL", "PERFGATE_WEBHOOK_SECRET"};

struct WebhookConfig {
  std::optional<WebhookUrl> url;  // none: notifications are off
  std::string secret;             // "whsec_<base64>"; empty: deliveries are unsigned
  PayloadFormat format = PayloadFormat::generic;
  SendPolicy send = SendPolicy::regressions;
  std::filesystem::path ca_bundle;  // empty: the system's CAs
  std::filesystem::path outbox;
  double connect_timeout_s = 5;
  double timeout_s = 15;  // one attempt, connect included
  int attempts = 4;       // per alert within one `perfgate notify`
  // The whole `perfgate notify` call, attempts and waits included: a hanging receiver costs a
  // CI job this much at most, then the alerts wait in the outbox for the next call.
  double budget_s = 30;
};

// Values from PERFGATE_WEBHOOK_* win over the file's. Throws perfgate::Error for a malformed
// URL (shown as scheme://host only), an unknown format or policy, or a bad config file
// (file, line, key). `warn` gets advice that is not an error (a config file inside a git work
// tree, readable by others).
WebhookConfig load_webhook_config(const Environment& env,
                                  const std::function<void(const std::string&)>& warn);

// What the CI system says about this job. Results carry commit and branch; CI fills gaps.
struct CiContext {
  std::string url;  // the job or pipeline page, "" outside CI
  std::string commit;
  std::string branch;
};
CiContext ci_context(const Environment& env);

}  // namespace perfgate
