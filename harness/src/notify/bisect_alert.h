#pragma once
// The alert of a finished `perfgate bisect`: which commit a change point (or a range) was
// bisected to, with its measured change. Signed and sent like every alert, through the outbox
// where it cannot be delivered; its webhook-id derives from the change point's id (else the
// range), so a bisect run again carries the same id. The generic payload has schema
// "perfgate.bisect.v1" (docs/webhooks.md): bisect --json's fields plus id and text.
#include <cstdint>

#include "judge/bisect_outcome.h"
#include "notify/alert.h"
#include "notify/config.h"

namespace perfgate {

Alert make_bisect_alert(const BisectOutcome& outcome, const CiContext& ci, PayloadFormat format,
                        std::int64_t now_unix_ms);

}  // namespace perfgate
