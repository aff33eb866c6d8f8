#include "report/bisect_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/terminal_text.h"
#include "report/text_table.h"

namespace perfgate {
namespace {

const BisectCommit* commit_of(const BisectOutcome& o, const std::string& sha) {
  for (const BisectCommit& c : o.commits)
    if (c.sha == sha) return &c;
  return nullptr;
}

std::string subject_of(const BisectOutcome& o, const std::string& sha) {
  const BisectCommit* c = commit_of(o, sha);
  return c ? terminal_text(c->subject) : "";
}

std::string short_sha(const std::string& sha) { return sha.substr(0, 12); }

std::string ratio_text(const BisectStep& s) {
  if (s.ratio <= 0) return "-";
  return fmt::format("{:.3f} [{:.3f}, {}]", s.ratio, s.low,
                     std::isfinite(s.high) ? fmt::format("{:.3f}", s.high) : "inf");
}

// The most pairs any case of the step was judged on (0: one pair, as `check --base`).
std::size_t pairs_of(const BisectStep& s) {
  std::size_t pairs = 0;
  for (const auto& [id, ratios] : s.pairs) pairs = std::max(pairs, ratios.size());
  return pairs;
}

// One precision for the change and its interval: hundredths where the step is sub-percent (a GPU's).
std::string change_text(const BisectStep& s) {
  const bool fine = std::fabs(change_pct(s.ratio)) < 1;
  const auto pct = [fine](double ratio) {
    return fine ? fmt::format("{:+.2f}%", change_pct(ratio)) : fmt::format("{:+.1f}%", change_pct(ratio));
  };
  const std::size_t pairs = pairs_of(s);
  return fmt::format("{} (interval {} to {}), A/B over {}", pct(s.ratio), pct(s.low),
                     std::isfinite(s.high) ? pct(s.high) : "inf",
                     pairs ? fmt::format("{} pairs ({} rounds)", pairs, s.rounds) : fmt::format("{} rounds", s.rounds));
}

}  // namespace

std::string render_bisect_step_line(const BisectOutcome& o, const BisectStep& s) {
  std::string line = fmt::format("{} {} against {}: {}", short_sha(s.head), subject_of(o, s.head),
                                 short_sha(s.base), to_string(s.outcome));
  if (s.ratio > 0) line += " " + ratio_text(s);
  if (const std::size_t pairs = pairs_of(s); pairs && s.ratio > 0)
    line += fmt::format(" over {} pairs", pairs);
  if (s.outcome == StepOutcome::skipped) line += ": " + s.message;
  return line + fmt::format(" (build {:.0f} s, measure {:.0f} s)", s.build_s, s.measure_s);
}

std::string render_bisect_steps(const BisectOutcome& o) {
  TextTable table({{"step"},
                   {"commit"},
                   {"against"},
                   {"verdict"},
                   {"head/base [interval]"},
                   {"rounds", TextTable::Align::right},
                   {"build s", TextTable::Align::right},
                   {"measure s", TextTable::Align::right},
                   {"subject"}});
  int n = 0;
  for (const BisectStep& s : o.steps)
    table.add_row({std::to_string(++n), short_sha(s.head), short_sha(s.base), to_string(s.outcome),
                   ratio_text(s), s.rounds ? std::to_string(s.rounds) : "-", fmt::format("{:.0f}", s.build_s),
                   fmt::format("{:.0f}", s.measure_s), subject_of(o, s.head)});
  return table.empty() ? "" : table.text();
}

std::string render_bisect_conclusion(const BisectOutcome& o) {
  std::string out;
  const std::string good = short_sha(o.commits.front().sha), bad = short_sha(o.commits.back().sha);
  switch (o.end) {
    case BisectEnd::none_slower:
      out += fmt::format("no commit is slower: {} measured {} against {}\n", bad,
                         o.total ? change_text(*o.total) : "-", good);
      break;
    case BisectEnd::total_inconclusive:
      out +=
          fmt::format("undecided: whether {} is slower than {} stayed inconclusive ({}); nothing bisected\n",
                      bad, good, o.total ? change_text(*o.total) : "-");
      break;
    case BisectEnd::good_unusable:
    case BisectEnd::bad_unusable:
      out += fmt::format("cannot bisect: the {} end {} does not build or lacks the case{}\n",
                         o.end == BisectEnd::good_unusable ? "good" : "bad",
                         o.end == BisectEnd::good_unusable ? good : bad,
                         o.steps.empty() ? "" : ": " + o.steps.back().message);
      break;
    case BisectEnd::out_of_builds:
      out += fmt::format(
          "stopped at the build budget: the first slower commit is after {} and at or before {}\n",
          o.commits[o.range.first].sha, o.commits[o.range.second].sha);
      break;
    case BisectEnd::running:
    case BisectEnd::found: break;
  }
  if (o.culprits.size() > 1)
    out += fmt::format("the total step is split over {} commits, each slower than the one before it:\n",
                       o.culprits.size());
  for (std::size_t i = 0; i < o.culprits.size(); ++i) {
    const Culprit& c = o.culprits[i];
    const BisectCommit& commit = o.commits[c.index];
    out += fmt::format("{}: {} {}\n", i == 0 ? "first bad commit" : "next bad commit", commit.sha,
                       terminal_text(commit.subject));
    if (!c.exact()) {
      std::string others;
      for (std::size_t k : c.candidates)
        if (k != c.index) others += (others.empty() ? "" : ", ") + short_sha(o.commits[k].sha);
      out += fmt::format("  or one of the commits before it that could not be measured: {}\n", others);
    }
    out += fmt::format("  {} against {}\n", change_text(c.step), short_sha(o.commits[c.base].sha));
  }
  if (!o.culprits.empty() && o.total)
    out += fmt::format("  the whole range {}..{}: {}\n", good, bad, change_text(*o.total));
  if (o.rest_undecided)
    out += "  whether the commits after the last culprit add to the step stayed undecided\n";
  if (const std::string check = magnitude_check(o); !check.empty())
    out += fmt::format("  against the change point {}: {}\n", o.expected->change_id, check);
  std::size_t unrelated = 0;
  for (const BisectCommit& c : o.commits) unrelated += c.unrelated;
  out += fmt::format("builds: {}{}, {} steps, {:.0f} s (building {:.0f} s, measuring {:.0f} s){}\n", o.builds,
                     o.failed_builds ? fmt::format(" ({} could not be measured)", o.failed_builds) : "",
                     o.steps.size(), o.wall_s, o.build_s, o.measure_s,
                     unrelated ? fmt::format("; {} commit{} changing only unrelated files not built",
                                             unrelated, unrelated == 1 ? "" : "s")
                               : "");
  return out;
}

}  // namespace perfgate
