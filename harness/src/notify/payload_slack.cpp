#include "notify/payload_slack.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "core/units.h"
#include "judge/verdict.h"
#include "notify/slack_text.h"
#include "perfgate/run_summary.h"
#include "stats/geometric_mean.h"

namespace perfgate {
namespace {

using nlohmann::json;

// Delta lines shown at most; the rest are counted in a context line. Keeps the message
// readable and far below the block limit.
constexpr std::size_t kMaxDeltaLines = 25;

// Cuts to `limit` characters (UTF-8 aware: never splits a code point) with an ellipsis.
std::string truncate(std::string text, std::size_t limit) {
  auto count = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
    return n;
  };
  if (count(text) <= limit) return text;
  std::size_t chars = 0, at = 0;
  for (; at < text.size(); ++at) {
    if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80) {
      if (chars == limit - 1) break;
      ++chars;
    }
  }
  return text.substr(0, at) + "\u2026";
}

const char* marker(Verdict verdict) {
  switch (verdict) {
    case Verdict::regressed:
    case Verdict::error: return ":red_circle:";
    case Verdict::inconclusive: return ":large_yellow_circle:";
    case Verdict::improved: return ":large_green_circle:";
    default: return ":white_circle:";
  }
}

json text_object(const char* type, std::string text) { return {{"type", type}, {"text", std::move(text)}}; }

json section(std::string mrkdwn) {
  return {{"type", "section"},
          {"text", text_object("mrkdwn", truncate(std::move(mrkdwn), SlackLimits::section_chars))}};
}

std::string counts_line(const std::map<Verdict, int>& counts) {
  std::string line;
  for (Verdict v : {Verdict::error, Verdict::regressed, Verdict::inconclusive, Verdict::improved,
                    Verdict::pass, Verdict::no_baseline, Verdict::skipped}) {
    if (counts.at(v) == 0) continue;
    if (!line.empty()) line += ", ";
    line += fmt::format("{} {}", counts.at(v), to_string(v));
  }
  return line.empty() ? "no cases" : line;
}

// Lines for what is worth a look: failures, then deltas that are not a plain pass.
std::vector<std::string> detail_lines(const RunResult& run) {
  std::vector<std::string> lines;
  for (const CaseResult* c : failed_cases(run))
    lines.push_back(fmt::format("{} `{}` error: {}", marker(Verdict::error), slack_escape(c->id),
                                slack_escape(truncate(c->message, 300))));
  for (const Delta& d : ordered_deltas(run)) {
    if (d.verdict == Verdict::pass || d.verdict == Verdict::no_baseline || d.verdict == Verdict::skipped)
      continue;
    // Each figure once: the medians, the change, and what it was allowed (a floor by its value).
    const std::string head = fmt::format("{} `{}` {} {}: ", marker(d.verdict), slack_escape(d.case_id),
                                         slack_escape(d.metric), to_string(d.verdict));
    if (d.threshold_source == kAbsoluteFloor) {
      const std::string past =
          fmt::format("{} {}", d.floor > 0 && d.current < d.floor ? "below the floor" : "past the limit",
                      format_metric_value(d.metric, d.floor));
      lines.push_back(
          head + (d.baseline != 0
                      ? fmt::format("{} \u2192 {} ({:+.1f} %), {}", format_metric_value(d.metric, d.baseline),
                                    format_metric_value(d.metric, d.current), d.change_pct, past)
                      : fmt::format("{}, {}", format_metric_value(d.metric, d.current), past)));
      continue;
    }
    lines.push_back(head + fmt::format("{} \u2192 {} ({:+.1f} %, limit {:.1f} % {})",
                                       format_metric_value(d.metric, d.baseline),
                                       format_metric_value(d.metric, d.current), d.change_pct,
                                       d.threshold_pct, d.threshold_source));
  }
  return lines;
}

}  // namespace

json slack_payload(const RunResult& run, const RunContext& context) {
  const RunSummary summary = summarize_run(run);
  const std::map<Verdict, int>& counts = summary.counts;
  const Verdict worst = summary.worst;
  const std::string machine =
      run.fingerprint.machine_id.empty() ? "unknown machine" : run.fingerprint.machine_id;
  const std::string short_commit = context.commit.substr(0, 12);
  std::string where = machine;
  if (!context.branch.empty() || !short_commit.empty())
    where += " (" + context.branch + (context.branch.empty() || short_commit.empty() ? "" : " @ ") +
             short_commit + ")";

  const char* headline = worst == Verdict::error       ? "errors"
                         : worst == Verdict::regressed ? "regressions"
                                                       : "no regressions";
  json blocks = json::array();
  blocks.push_back(
      {{"type", "header"},
       {"text",
        {{"type", "plain_text"},
         {"text", truncate(fmt::format("perfgate: {} on {}", headline, machine), SlackLimits::header_chars)},
         {"emoji", true}}}});
  std::string counts_text = fmt::format("*{}*", slack_escape(counts_line(counts)));
  if (const auto geomean = run_geometric_mean(run))
    counts_text += "\n" + slack_escape(geometric_mean_text(*geomean));
  blocks.push_back(section(counts_text));

  json context_elements = json::array();
  context_elements.push_back(
      text_object("mrkdwn", truncate("machine: `" + slack_escape(machine) + "`", 300)));
  if (!context.branch.empty())
    context_elements.push_back(
        text_object("mrkdwn", truncate("branch: `" + slack_escape(context.branch) + "`", 300)));
  if (!short_commit.empty())
    context_elements.push_back(text_object("mrkdwn", "commit: `" + slack_escape(short_commit) + "`"));
  context_elements.push_back(text_object("mrkdwn", truncate("run: `" + slack_escape(run.run_id) + "`", 300)));
  blocks.push_back({{"type", "context"}, {"elements", context_elements}});
  blocks.push_back({{"type", "divider"}});

  const auto lines = detail_lines(run);
  const std::size_t shown = std::min(lines.size(), kMaxDeltaLines);
  std::string packed;
  for (std::size_t i = 0; i < shown; ++i) {
    std::string line = truncate(lines[i], 1000);
    if (!packed.empty() && packed.size() + 1 + line.size() > SlackLimits::section_chars) {
      blocks.push_back(section(packed));
      packed.clear();
    }
    packed += (packed.empty() ? "" : "\n") + line;
  }
  if (!packed.empty()) blocks.push_back(section(packed));
  if (lines.empty()) blocks.push_back(section("No regressions or notable changes."));
  if (lines.size() > shown)
    blocks.push_back({{"type", "context"},
                      {"elements",
                       {text_object("mrkdwn", fmt::format("\u2026and {} more; see the run's report.",
                                                          lines.size() - shown))}}});

  if (slack_linkable(context.ci_url))
    blocks.push_back({{"type", "actions"},
                      {"elements",
                       {{{"type", "button"},
                         {"text", {{"type", "plain_text"}, {"text", "Open CI run"}}},
                         {"url", context.ci_url},
                         {"action_id", "perfgate_open_ci"}}}}});

  // The notification's text is formatted by Slack as mrkdwn too: the machine and branch escaped.
  std::string text = slack_escape(fmt::format("perfgate on {}: {}", where, counts_line(counts)));
  if (slack_linkable(context.ci_url)) text += " " + context.ci_url;
  return {{"text", truncate(text, SlackLimits::section_chars)}, {"blocks", blocks}};
}

}  // namespace perfgate
