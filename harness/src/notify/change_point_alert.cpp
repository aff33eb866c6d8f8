#include "notify/change_point_alert.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "notify/slack_text.h"

namespace perfgate {

Alert make_change_point_alert(const CaseHistory& history, const HistoryChange& change, const CiContext& ci,
                              PayloadFormat format, std::int64_t now_unix_ms) {
  Alert alert;
  alert.id = alert_id("change-point:" + change.id);
  alert.run_id = change.run_after;
  alert.created_at_ms = now_unix_ms;
  const std::string text = fmt::format(
      "perfgate: {} on {} became {:+.1f}% slower (interval {:+.1f}% to {:+.1f}%) between {} and {}{}; "
      "accept it with `perfgate history ack {} --by NAME --reason TEXT`",
      history.case_id, history.machine_id, change.step.magnitude_pct, change.step.low_pct,
      change.step.high_pct, change.commit_before.substr(0, 12), change.commit_after.substr(0, 12),
      change.boundary.empty() ? "" : " (new " + change.boundary + ")", change.id);
  if (format == PayloadFormat::slack) {
    alert.body = nlohmann::json{{"text", slack_text_with_link(text, ci.url)}}.dump();
    return alert;
  }
  nlohmann::json body = change_json(change);
  body.update({{"schema", kChangePointSchema},
               {"id", alert.id},
               {"machine_id", history.machine_id},
               {"case", history.case_id},
               {"metric", history.metric},
               {"runs", history.points.size()},
               {"ci_url", ci.url},
               {"text", text}});
  alert.body = body.dump();
  return alert;
}

}  // namespace perfgate
