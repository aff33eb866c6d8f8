#pragma once
// The generic JSON payload (schema "perfgate.alert.v1", documented in docs/webhooks.md).
// Fields are only ever added within a schema version; a rename or removal bumps it.
#include <nlohmann/json.hpp>
#include <string>

#include "notify/run_digest.h"
#include "perfgate/result.h"

namespace perfgate {

inline constexpr const char* kGenericSchema = "perfgate.alert.v1";

nlohmann::json generic_payload(const RunResult& run, const RunContext& context, const std::string& alert_id);

}  // namespace perfgate
