#pragma once
// One alert per run: the bytes to POST and the id that stays the same across retries, the
// outbox and later `perfgate notify` calls, so receivers can drop duplicates.
#include <cstdint>
#include <string>

#include "notify/config.h"
#include "perfgate/result.h"

namespace perfgate {

struct Alert {
  std::string id;  // webhook-id: "msg_" + 32 hex digits derived from the run id
  std::string run_id;
  std::int64_t created_at_ms = 0;  // Unix time in milliseconds: orders the outbox
  std::string body;                // the JSON payload, signed and sent byte for byte
};

std::string alert_id(const std::string& run_id);

// Whether `policy` asks for an alert about this run.
bool should_send(const RunResult& run, SendPolicy policy);

// The run in `format`, as an alert stamped `now_unix_ms`.
Alert make_alert(const RunResult& run, const CiContext& ci, PayloadFormat format, std::int64_t now_unix_ms);

}  // namespace perfgate
