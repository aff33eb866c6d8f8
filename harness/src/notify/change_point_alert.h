#pragma once
// The alert for a new regression change point in a case's history (`perfgate history --notify`):
// one per change point, its webhook-id derived from the change point's id, so every later
// attempt, the outbox and a second `history --notify` carry the same id (receivers drop
// duplicates; ALERTED.log beside the history keeps perfgate from building it again). The
// generic payload has schema "perfgate.change-point.v1" (docs/webhooks.md); Slack gets a text.
#include <cstdint>

#include "judge/history_analysis.h"
#include "notify/alert.h"
#include "notify/config.h"

namespace perfgate {

inline constexpr const char* kChangePointSchema = "perfgate.change-point.v1";

Alert make_change_point_alert(const CaseHistory& history, const HistoryChange& change, const CiContext& ci,
                              PayloadFormat format, std::int64_t now_unix_ms);

}  // namespace perfgate
