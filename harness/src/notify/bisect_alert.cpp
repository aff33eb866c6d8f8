#include "notify/bisect_alert.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "notify/slack_text.h"

namespace perfgate {

Alert make_bisect_alert(const BisectOutcome& o, const CiContext& ci, PayloadFormat format,
                        std::int64_t now_unix_ms) {
  const std::string good = o.commits.front().sha, bad = o.commits.back().sha;
  std::string cases;
  for (const auto& id : o.case_ids) cases += (cases.empty() ? "" : ", ") + id;
  const std::string what = o.expected ? "change point " + o.expected->change_id + " of " + cases : cases;
  Alert alert;
  alert.id = alert_id("bisect:" + (o.expected ? o.expected->change_id : cases + ":" + good + ".." + bad));
  alert.run_id = good + ".." + bad;
  alert.created_at_ms = now_unix_ms;
  std::string text;
  if (o.culprits.empty()) {
    text = fmt::format("perfgate: bisected {} on {} ({}..{}): {}", what, o.machine_id, good.substr(0, 12),
                       bad.substr(0, 12),
                       o.end == BisectEnd::none_slower ? "no commit is slower" : to_string(o.end));
  } else {
    text = fmt::format("perfgate: bisected {} on {} to", what, o.machine_id);
    for (std::size_t i = 0; i < o.culprits.size(); ++i) {
      const Culprit& c = o.culprits[i];
      text += fmt::format("{} {}{} \"{}\" ({:+.1f}%, interval {:+.1f}% to {:+.1f}%)", i ? " and" : "",
                          c.exact() ? "" : "one of the commits up to ", o.commits[c.index].sha.substr(0, 12),
                          o.commits[c.index].subject, change_pct(c.step.ratio), change_pct(c.step.low),
                          change_pct(c.step.high));
    }
    text += fmt::format(" in {} builds", o.builds);
  }
  if (format == PayloadFormat::slack) {
    alert.body = nlohmann::json{{"text", slack_text_with_link(text, ci.url)}}.dump();
    return alert;
  }
  nlohmann::json body = bisect_json(o);
  body.erase("steps");  // in the job's --json file; the alert says what was found
  body.update({{"schema", "perfgate.bisect.v1"}, {"id", alert.id}, {"ci_url", ci.url}, {"text", text}});
  alert.body = body.dump();
  return alert;
}

}  // namespace perfgate
