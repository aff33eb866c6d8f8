#pragma once
// Runs for the notify tests, built in code or read from tests/notify/fixtures.
#include <map>
#include <optional>
#include <string>

#include "notify/config.h"
#include "perfgate/result.h"
#include "store/result_json.h"

namespace perfgate::notify_testing {

inline RunResult fixture_run() {
  return read_results(std::string(PERFGATE_TESTS_DIR) + "/notify/fixtures/run_mixed.json");
}

inline CaseResult judged_case(const std::string& id, Verdict verdict, double change_pct) {
  CaseResult c;
  c.id = id;
  c.kernel = id.substr(0, id.find('/'));
  c.backend = "cpu";
  c.verdict = verdict;
  Judgement j;
  j.metric = "latency_ns";
  j.baseline_median = 1000;
  j.current_median = 1000 * (1 + change_pct / 100);
  j.change_pct = change_pct;
  j.threshold_pct = 5;
  j.verdict = verdict;
  c.judgements.push_back(j);
  return c;
}

// An environment made of `values` (an empty value counts as unset, as in the real one).
inline Environment env_of(std::map<std::string, std::string> values) {
  return [values](std::string_view name) -> std::optional<std::string> {
    auto it = values.find(std::string(name));
    if (it == values.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

}  // namespace perfgate::notify_testing
