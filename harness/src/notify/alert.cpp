#include "notify/alert.h"

#include <fmt/format.h>
#include <openssl/sha.h>

#include "notify/payload_generic.h"
#include "notify/payload_slack.h"

namespace perfgate {

std::string alert_id(const std::string& run_id) {
  // Hashing keeps the id short and free of characters that a file name or header cannot hold.
  const std::string input = "perfgate-alert:" + run_id;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(input.data()), input.size(), digest);
  std::string id = "msg_";
  for (int i = 0; i < 16; ++i) id += fmt::format("{:02x}", digest[i]);
  return id;
}

bool should_send(const RunResult& run, SendPolicy policy) {
  if (policy == SendPolicy::always) return true;
  for (const auto& c : run.cases) {
    if (c.verdict == Verdict::regressed || c.verdict == Verdict::error) return true;
    if (policy == SendPolicy::deltas &&
        (c.verdict == Verdict::improved || c.verdict == Verdict::inconclusive))
      return true;
  }
  return false;
}

Alert make_alert(const RunResult& run, const CiContext& ci, PayloadFormat format, std::int64_t now_unix_ms) {
  Alert alert;
  alert.id = alert_id(run.run_id);
  alert.run_id = run.run_id;
  alert.created_at_ms = now_unix_ms;
  RunContext context = run_context(run, ci);
  alert.body = format == PayloadFormat::slack ? slack_payload(run, context).dump()
                                              : generic_payload(run, context, alert.id).dump();
  return alert;
}

}  // namespace perfgate
