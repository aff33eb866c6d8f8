// `perfgate history [CASE...] --history DIR`: a case's medians run after run; with --changes its
// change points and drift, with --gate the exit code CI gates on, with --notify one alert per new
// regression change point; `perfgate history ack ID --by NAME --reason TEXT` accepts one.
// Wiring only: judge/history_analysis.h judges, report/history_changes.h prints.
#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/run_info.h"
#include "core/terminal_text.h"
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

void say_history(const std::string& line) {
  std::cerr << "perfgate history: " << terminal_text(line) << "\n";
}

// How long the reader waits for the history's lock: store/history.h's minute, or what a test that
// holds the lock to see the reader give up sets (the same wait and error, sooner). Only this
// command reads the variable.
std::chrono::milliseconds history_lock_wait() {
  const char* text = std::getenv("PERFGATE_TEST_HISTORY_LOCK_WAIT_MS");
  if (!text || !*text) return kHistoryLockWait;
  return std::chrono::milliseconds(std::strtoll(text, nullptr, 10));
}

std::vector<HistoryPoint> selected_points(const HistoryFlags& flags) {
  std::vector<HistoryPoint> points;
  for (HistoryPoint& p : read_all_history(flags.history_dir, flags.machine_id, history_lock_wait())) {
    bool wanted = flags.case_globs.empty();
    for (const auto& glob : flags.case_globs)
      wanted = wanted || fnmatch(glob.c_str(), p.case_id.c_str(), 0) == 0;
    if (wanted) points.push_back(std::move(p));
  }
  return points;
}

// Exit codes of `perfgate history --notify`, as `perfgate notify`'s (docs/webhooks.md).
constexpr int kAlertsDelivered = 0;  // delivered, or nothing to send
constexpr int kAlertRejected = 2;    // the receiver refused an alert (4xx)
constexpr int kAlertQueued = 3;      // kept in the outbox, not delivered: a later --notify sends it

// One alert per open regression change point not alerted before. A change point goes into
// ALERTED.log once its alert is delivered, never when it only waits in the outbox: in CI the
// outbox goes with the job's container while the log is committed with the history, so a later
// run must still see it as not alerted and send it again. Returns the exit code above.
int send_alerts(const HistoryFlags& flags, const std::vector<CaseHistory>& histories) {
  const Environment env = process_environment();
  const WebhookConfig config = load_webhook_config(env, say_history);
  if (!config.url) {
    say_history("no webhook configured (PERFGATE_WEBHOOK_URL or PERFGATE_WEBHOOK_CONFIG): no alert sent");
    return kAlertsDelivered;
  }
  const auto alerted = read_alerted(flags.history_dir);
  WebhookSender sender(config, {}, {.log = say_history});
  int sent = 0, queued = 0, rejected = 0;
  for (const CaseHistory& h : histories)
    for (const HistoryChange* c : h.open_regressions()) {
      if (alerted.count(c->id)) continue;
      const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
      const Alert alert = make_change_point_alert(h, *c, ci_context(env), config.format, now_ms);
      const SendReport report = sender.send(alert);
      const bool delivered =
          std::find(report.delivered_ids.begin(), report.delivered_ids.end(), alert.id) != report.delivered_ids.end();
      if (delivered) append_alerted(flags.history_dir, c->id, utc_now_iso8601());
      queued += report.queued;
      rejected += report.rejected;
      ++sent;
      say_history(fmt::format("alert for {} ({}): {}; this call: {} delivered, {} queued, {} rejected", c->id,
                              h.case_id,
                              delivered ? "delivered" : "not delivered, sent again by the next --notify",
                              report.delivered, report.queued, report.rejected));
    }
  if (sent == 0) say_history("no new regression change point to alert about");
  if (rejected > 0) return kAlertRejected;
  if (queued > 0) {
    say_history(fmt::format("{} alert(s) wait in {}; a later `perfgate history --notify` sends them", queued,
                            config.outbox.string()));
    return kAlertQueued;
  }
  return kAlertsDelivered;
}

}  // namespace

int history_main(const HistoryFlags& flags) {
  if (flags.history_dir.empty()) throw Error("history: --history DIR is required");
  if (!flags.changes && !flags.gate && !flags.notify && !flags.unbisected) {
    if (flags.case_globs.empty())
      throw Error("history: name a CASE (or a glob), or ask for --changes or --gate");
    const std::vector<HistoryPoint> points = selected_points(flags);
    if (flags.json) {
      std::fputs(render_history_json_lines(points).c_str(), stdout);
      return 0;
    }
    if (points.empty())
      say_history(fmt::format("no entries under {}", flags.history_dir));
    else
      // A history's lines are anyone's text (run ids, commits, case ids): shown as text.
      std::fputs(terminal_text(render_history_table(points)).c_str(), stdout);
    return 0;
  }

  const ThresholdSet thresholds = ThresholdSet::load(flags.thresholds_dir);
  std::optional<BaselineStore> baselines;
  if (std::filesystem::is_directory(flags.baselines_dir)) baselines.emplace(flags.baselines_dir);
  std::vector<CaseHistory> histories =
      analyse_history(selected_points(flags), thresholds, baselines ? &*baselines : nullptr,
                      read_acknowledgements(flags.history_dir));
  attach_bisections(histories, read_bisected(flags.history_dir));
  if (histories.empty()) say_history(fmt::format("no entries under {}", flags.history_dir));
  if (flags.unbisected) {
    for (const CaseHistory& h : histories)
      for (const HistoryChange* c : h.open_regressions())
        if (!c->bisected) std::printf("%s\n", c->id.c_str());
    return 0;
  }

  if (flags.json)
    std::cout << changes_json(histories).dump(2) << "\n";
  else if (flags.changes)
    std::fputs(terminal_text(render_changes_table(histories)).c_str(), stdout);
  const int alerts = flags.notify ? send_alerts(flags, histories) : kAlertsDelivered;
  // A refused alert is bad input, before the gate's verdict; an alert only queued after it.
  if (alerts == kAlertRejected) return alerts;
  if (!flags.gate) return alerts;

  const HistoryGateVerdict verdict = judge_history_gate(
      histories, fmt::format("{} history ack ID --by NAME --reason TEXT --history {}", shell_word(flags.program),
                             shell_word(flags.history_dir)));
  for (const std::string& line : verdict.lines) say_history(line);
  if (!verdict.passes()) return kGateFails;
  return alerts == kAlertQueued ? alerts : kGatePasses;
}

int ack_main(const AckFlags& flags) {
  if (flags.id.rfind("cp-", 0) != 0 && flags.id.rfind("drift-", 0) != 0)
    throw Error("history ack: " + flags.id + " is not a change point or drift id (cp-... or drift-...)");
  if (!std::filesystem::is_directory(flags.history_dir))
    throw Error("history ack: --history " + flags.history_dir + " is not a folder; nothing acknowledged");
  // Only an id the history holds: a mistyped one would be logged and accept nothing.
  std::optional<BaselineStore> baselines;
  if (std::filesystem::is_directory(flags.baselines_dir)) baselines.emplace(flags.baselines_dir);
  bool known = false;
  for (const CaseHistory& h : analyse_history(read_all_history(flags.history_dir),
                                              ThresholdSet::load(flags.thresholds_dir),
                                              baselines ? &*baselines : nullptr, {})) {
    known = known || h.drift_id == flags.id;
    for (const HistoryChange& c : h.changes) known = known || c.id == flags.id;
  }
  if (!known)
    throw Error("history ack: " + flags.id + " is no change point or drift of the history in " + flags.history_dir +
                " (`perfgate history --changes --history " + flags.history_dir + "` lists them); nothing acknowledged");
  append_acknowledgement(flags.history_dir, {flags.id, flags.by, flags.reason, utc_now_iso8601()});
  std::fputs(terminal_text(fmt::format("acknowledged {} by {}: {} ({})\n", flags.id, flags.by, flags.reason,
                                       acknowledgements_file(flags.history_dir).string()))
                 .c_str(),
             stdout);
  return 0;
}

}  // namespace perfgate
