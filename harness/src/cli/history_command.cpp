// `perfgate history [CASE...] --history DIR`: a case's medians run after run; with --changes its
// change points and drift, with --gate the exit code CI gates on, with --notify one alert per new
// regression change point; `perfgate history ack ID --by NAME --reason TEXT` accepts one.
// Wiring only: judge/history_analysis.h judges, report/history_changes.h prints.
#include <fmt/format.h>
#include <fnmatch.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/run_info.h"
#include "judge/history_analysis.h"
#include "judge/history_gate.h"
#include "notify/change_point_alert.h"
#include "notify/config.h"
#include "notify/webhook_sender.h"
#include "perfgate/error.h"
#include "report/history_changes.h"
#include "report/history_table.h"
#include "report/next_steps.h"
#include "store/history.h"
#include "store/history_log.h"

namespace perfgate {
namespace {

// Exit codes of `perfgate history --gate` (docs/history.md).
constexpr int kGatePasses = 0;
constexpr int kGateFails = 1;  // an open regression change point, or drift past its allowance

void say(const std::string& line) { std::cerr << "perfgate history: " << line << "\n"; }

std::vector<HistoryPoint> selected_points(const HistoryFlags& flags) {
  std::vector<HistoryPoint> points;
  for (HistoryPoint& p : read_all_history(flags.history_dir, flags.machine_id)) {
    bool wanted = flags.case_globs.empty();
    for (const auto& glob : flags.case_globs)
      wanted = wanted || fnmatch(glob.c_str(), p.case_id.c_str(), 0) == 0;
    if (wanted) points.push_back(std::move(p));
  }
  return points;
}

// One alert per open regression change point not alerted before; each goes into ALERTED.log once
// the sender holds it (delivered, or in the outbox for the next call).
void send_alerts(const HistoryFlags& flags, const std::vector<CaseHistory>& histories) {
  const Environment env = process_environment();
  const WebhookConfig config = load_webhook_config(env, say);
  if (!config.url) {
    say("no webhook configured (PERFGATE_WEBHOOK_URL or PERFGATE_WEBHOOK_CONFIG): no alert sent");
    return;
  }
  const auto alerted = read_alerted(flags.history_dir);
  WebhookSender sender(config, {}, {.log = say});
  int sent = 0;
  for (const CaseHistory& h : histories)
    for (const HistoryChange* c : h.open_regressions()) {
      if (alerted.count(c->id)) continue;
      const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
      const SendReport report =
          sender.send(make_change_point_alert(h, *c, ci_context(env), config.format, now_ms));
      append_alerted(flags.history_dir, c->id, utc_now_iso8601());
      ++sent;
      say(fmt::format("alert for {} ({}): {} delivered, {} queued, {} rejected", c->id, h.case_id,
                      report.delivered, report.queued, report.rejected));
    }
  if (sent == 0) say("no new regression change point to alert about");
}

}  // namespace

int history_main(const HistoryFlags& flags) {
  if (flags.history_dir.empty()) throw Error("history: --history DIR is required");
  if (!flags.changes && !flags.gate && !flags.notify) {
    if (flags.case_globs.empty())
      throw Error("history: name a CASE (or a glob), or ask for --changes or --gate");
    const std::vector<HistoryPoint> points = selected_points(flags);
    if (flags.json) {
      std::fputs(render_history_json_lines(points).c_str(), stdout);
      return 0;
    }
    if (points.empty())
      say(fmt::format("no entries under {}", flags.history_dir));
    else
      std::fputs(render_history_table(points).c_str(), stdout);
    return 0;
  }

  const ThresholdSet thresholds = ThresholdSet::load(flags.thresholds_dir);
  std::optional<BaselineStore> baselines;
  if (std::filesystem::is_directory(flags.baselines_dir)) baselines.emplace(flags.baselines_dir);
  const std::vector<CaseHistory> histories =
      analyse_history(selected_points(flags), thresholds, baselines ? &*baselines : nullptr,
                      read_acknowledgements(flags.history_dir));
  if (histories.empty()) say(fmt::format("no entries under {}", flags.history_dir));

  if (flags.json)
    std::cout << changes_json(histories).dump(2) << "\n";
  else if (flags.changes)
    std::fputs(render_changes_table(histories).c_str(), stdout);
  if (flags.notify) send_alerts(flags, histories);
  if (!flags.gate) return 0;

  const HistoryGateVerdict verdict = judge_history_gate(
      histories, fmt::format("{} history ack ID --by NAME --reason TEXT --history {}", shell_word(flags.program),
                             shell_word(flags.history_dir)));
  for (const std::string& line : verdict.lines) say(line);
  return verdict.passes() ? kGatePasses : kGateFails;
}

int ack_main(const AckFlags& flags) {
  if (flags.id.rfind("cp-", 0) != 0 && flags.id.rfind("drift-", 0) != 0)
    throw Error("history ack: " + flags.id + " is not a change point or drift id (cp-... or drift-...)");
  append_acknowledgement(flags.history_dir, {flags.id, flags.by, flags.reason, utc_now_iso8601()});
  std::printf("acknowledged %s by %s: %s (%s)\n", flags.id.c_str(), flags.by.c_str(), flags.reason.c_str(),
              acknowledgements_file(flags.history_dir).c_str());
  return 0;
}

}  // namespace perfgate
