#include "judge/bisect_outcome.h"

#include <fmt/format.h>

namespace perfgate {

BisectOutcome bisect_outcome(const Bisection& bisection) {
  BisectOutcome o;
  o.end = bisection.end();
  o.commits = bisection.commits();
  o.culprits = bisection.culprits();
  o.total = bisection.total();
  o.rest_undecided = bisection.rest_undecided();
  o.range = bisection.range();
  o.builds = bisection.builds();
  return o;
}

std::string magnitude_check(const BisectOutcome& o) {
  if (!o.expected || o.culprits.empty()) return "";
  double ratio = 1, low = 1, high = 1;
  for (const Culprit& c : o.culprits) {
    ratio *= c.step.ratio > 0 ? c.step.ratio : 1;
    low *= c.step.low > 0 ? c.step.low : 1;
    high *= c.step.high > 0 ? c.step.high : 1;
  }
  const ExpectedStep& e = *o.expected;
  const std::string measured =
      fmt::format("{:+.1f}% [{:+.1f}%, {:+.1f}%]", change_pct(ratio), change_pct(low), change_pct(high));
  if (change_pct(high) < e.low_pct)
    return fmt::format(
        "smaller than the change point's {:+.1f}% [{:+.1f}%, {:+.1f}%]: the culprits measure {}; "
        "part of the step lies elsewhere (another case's build, the machine, or outside the range)",
        e.change_pct, e.low_pct, e.high_pct, measured);
  if (change_pct(low) > e.high_pct)
    return fmt::format(
        "larger than the change point's {:+.1f}% [{:+.1f}%, {:+.1f}%]: the culprits measure {} "
        "(A/B on this machine sees more of it than the history's runs)",
        e.change_pct, e.low_pct, e.high_pct, measured);
  return fmt::format(
      "consistent with the change point's {:+.1f}% [{:+.1f}%, {:+.1f}%]: the culprits measure {}",
      e.change_pct, e.low_pct, e.high_pct, measured);
}

namespace {

nlohmann::json step_json(const BisectStep& s) {
  nlohmann::json j{{"commit", s.head},     {"against", s.base},           {"verdict", to_string(s.outcome)},
                   {"ratio", s.ratio},     {"interval", {s.low, s.high}}, {"rounds", s.rounds},
                   {"build_s", s.build_s}, {"measure_s", s.measure_s},    {"message", s.message}};
  if (s.ratio > 0) j["change_pct"] = change_pct(s.ratio);
  if (!s.pairs.empty()) j["pairs"] = s.pairs;  // --pairs: each case's pair ratios, earlier ones pooled
  return j;
}

}  // namespace

nlohmann::json bisect_json(const BisectOutcome& o) {
  nlohmann::json culprits = nlohmann::json::array();
  for (const Culprit& c : o.culprits) {
    nlohmann::json candidates = nlohmann::json::array();
    for (std::size_t i : c.candidates) candidates.push_back(o.commits[i].sha);
    culprits.push_back({{"commit", o.commits[c.index].sha},
                        {"subject", o.commits[c.index].subject},
                        {"exact", c.exact()},
                        {"candidates", candidates},
                        {"against", o.commits[c.base].sha},
                        {"step", step_json(c.step)}});
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const BisectStep& s : o.steps) steps.push_back(step_json(s));
  nlohmann::json skipped_unmeasured = nlohmann::json::array();
  for (const BisectCommit& c : o.commits)
    if (c.unrelated) skipped_unmeasured.push_back(c.sha);
  nlohmann::json j{{"schema", "perfgate.bisect.v1"},
                   {"cases", o.case_ids},
                   {"machine_id", o.machine_id},
                   {"source", o.source},
                   {"good", o.commits.front().sha},
                   {"bad", o.commits.back().sha},
                   {"commits", o.commits.size()},
                   {"end", to_string(o.end)},
                   {"first_bad", o.culprits.empty() ? nlohmann::json(nullptr)
                                                    : nlohmann::json(o.commits[o.culprits[0].index].sha)},
                   {"culprits", culprits},
                   {"split", o.culprits.size() > 1},
                   {"rest_undecided", o.rest_undecided},
                   {"steps", steps},
                   {"unrelated_commits", skipped_unmeasured},
                   {"builds", o.builds},
                   {"failed_builds", o.failed_builds},
                   {"wall_s", o.wall_s},
                   {"build_s", o.build_s},
                   {"measure_s", o.measure_s}};
  if (o.total) j["total"] = step_json(*o.total);
  if (o.end == BisectEnd::out_of_builds)
    j["range_left"] = {o.commits[o.range.first].sha, o.commits[o.range.second].sha};
  if (o.expected) {
    j["change_point"] = {{"id", o.expected->change_id},
                         {"machine_id", o.expected->machine_id},
                         {"change_pct", o.expected->change_pct},
                         {"interval_pct", {o.expected->low_pct, o.expected->high_pct}}};
    j["magnitude_check"] = magnitude_check(o);
  }
  return j;
}

Bisected bisected_record(const BisectOutcome& o, const std::string& at) {
  Bisected b;
  b.id = o.expected ? o.expected->change_id : "";
  b.builds = o.builds;
  b.at = at;
  for (const Culprit& c : o.culprits)
    b.commits.push_back({o.commits[c.index].sha, o.commits[c.index].subject, change_pct(c.step.ratio),
                         change_pct(c.step.low), change_pct(c.step.high), c.exact()});
  return b;
}

}  // namespace perfgate
