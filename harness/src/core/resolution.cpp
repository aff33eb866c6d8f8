#include "core/resolution.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

double middle_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string pct_text(double pct) {
  char text[32];
  std::snprintf(text, sizeof text, pct < 10 ? "%.1f%%" : "%.0f%%", pct);
  return text;
}

// The main judgement's resolution of every case judged against a baseline.
std::vector<double> judged_allowances(const RunResult& run) {
  std::vector<double> allowed;
  for (const CaseResult& c : run.cases)
    if (const Judgement* j = main_judgement(c); j && !resolution_text(*j).empty()) allowed.push_back(catches_pct(*j));
  return allowed;
}

// What a run judged against baselines from elsewhere means, by where its level came from.
std::string origin_meaning(const std::string& where, const std::string& level_source) {
  if (where.starts_with("one period"))
    return ": a change past a case's own allowance is named, not failed, within how far a shared host's level has "
           "been seen to move between periods, until this host's history (--history) or a merge of another "
           "period's proposal has measured its moves; past that it is judged";
  if (level_source == "history runs") return ", at the level this one's own runs in the history placed";
  const std::string place = ": 5 runs of this one in the history (--history) at the baseline's kernel source place it";
  if (level_source == "device spread")
    return ": a change within the spread measured between its GPUs or hosts is named, not failed; past it, judged" +
           place;
  return ": a change within its class's default bound (GPUs of one model 10%, hosts of a class 50%) is named, not "
         "failed; past it, judged" +
         place;
}

}  // namespace

double catches_pct(const Judgement& j) {
  return j.level_bound_pct > 0 ? level_and_noise_reach_pct(j.level_bound_pct, j.threshold_pct) : j.threshold_pct;
}

double level_and_noise_reach_pct(double bound_pct, double allowance_pct) {
  return 100 * std::expm1(std::hypot(std::log1p(bound_pct / 100), std::log1p(allowance_pct / 100)));
}

std::string resolution_text(double allowed_pct, const std::string& source) {
  return pct_text(allowed_pct) + " " + source;
}

std::string resolution_text(const Judgement& j) {
  if (j.baseline_median == 0 || j.threshold_pct <= 0) return "";
  // Results written before resolutions had sources still show their threshold.
  return j.threshold_source.empty() ? pct_text(catches_pct(j)) : resolution_text(catches_pct(j), j.threshold_source);
}

std::string case_resolution(const CaseResult& result) {
  const Judgement* j = main_judgement(result);
  return j ? resolution_text(*j) : "";
}

std::string run_resolution(const RunResult& run) {
  const std::vector<double> allowed = judged_allowances(run);
  std::map<std::string, int> by_source;
  for (const CaseResult& c : run.cases)
    if (const Judgement* j = main_judgement(c); j && !resolution_text(*j).empty())
      by_source[j->threshold_source]++;
  if (allowed.empty()) return "";
  std::string sources;
  for (const auto& [source, count] : by_source)
    sources += (sources.empty() ? "" : ", ") + std::to_string(count) + " " + source;
  const auto [lo, hi] = std::minmax_element(allowed.begin(), allowed.end());
  std::string line = "this gate catches >= " + pct_text(middle_of(allowed)) + " (median over " +
                     std::to_string(allowed.size()) + " judged cases, " + pct_text(*lo) + " to " +
                     pct_text(*hi) + "; " + sources + ") on " + run.fingerprint.machine_id;
  // Baselines measured elsewhere (judge/judge_case.cpp): whose they were, where each case's level
  // came from, and what that means.
  std::map<std::pair<std::string, std::string>, int> origins;
  for (const CaseResult& c : run.cases)
    if (!c.baseline_origin.empty()) {
      const Judgement* j = main_judgement(c);
      origins[{c.baseline_origin, j ? j->level_source : ""}]++;
    }
  for (const auto& [origin, count] : origins)
    line += "; " + std::to_string(count) + (count == 1 ? " case" : " cases") + " judged against baselines from " +
            origin.first + origin_meaning(origin.first, origin.second);
  // An allowance that followed the load (judge/load_allowance.h): this run saw less than a quiet one.
  if (auto busy = by_source.find("load"); busy != by_source.end())
    line += "; busy machine: " + std::to_string(busy->second) + (busy->second == 1 ? " case" : " cases") +
            " allowed more than on a quiet one";
  return line;
}

std::string run_resolution_brief(const RunResult& run) {
  const std::vector<double> allowed = judged_allowances(run);
  return allowed.empty() ? "" : "catches >= " + pct_text(middle_of(allowed));
}

}  // namespace perfgate
