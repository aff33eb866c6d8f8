#include "store/bisect_log.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "core/file_lock.h"
#include "perfgate/error.h"
#include "store/json_lines.h"

namespace perfgate {
namespace {

using nlohmann::json;

json step_json(const BisectStep& s) {
  json j = {{"head", s.head},
          {"base", s.base},
          {"outcome", to_string(s.outcome)},
          {"base_failed", s.base_failed},
          {"ratio", s.ratio},
          {"interval", {s.low, s.high}},
          {"rounds", s.rounds},
          {"message", s.message},
          {"build_s", s.build_s},
          {"measure_s", s.measure_s}};
  if (!s.pairs.empty()) j["pairs"] = s.pairs;
  return j;
}

BisectStep step_from_json(const json& j) {
  BisectStep s;
  s.head = j.at("head").get<std::string>();
  s.base = j.at("base").get<std::string>();
  s.outcome = step_outcome_from_string(j.at("outcome").get<std::string>());
  s.base_failed = j.value("base_failed", false);
  s.ratio = j.value("ratio", 0.0);
  const json interval = j.value("interval", json::array({0.0, 0.0}));
  s.low = interval.at(0).get<double>();
  s.high = interval.at(1).get<double>();
  s.rounds = j.value("rounds", 0);
  if (j.contains("pairs")) s.pairs = j.at("pairs").get<std::map<std::string, std::vector<double>>>();
  s.message = j.value("message", "");
  s.build_s = j.value("build_s", 0.0);
  s.measure_s = j.value("measure_s", 0.0);
  return s;
}

json key_json(const BisectKey& k) {
  return {{"bisect", {{"case", k.case_id}, {"good", k.good}, {"bad", k.bad}, {"judging", k.judging}}}};
}

// Through the one appender (store/json_lines.h): whole lines, fsynced, under the log's lock, so
// a bisect killed mid-step resumes from whole steps.
void append_json_line(const std::filesystem::path& file, const json& line) {
  const FileLock lock(file.string() + ".lock", std::chrono::seconds(60), "writer of this bisect log");
  append_json_lines(file, line.dump() + "\n", "bisect log entry", lock);
}

}  // namespace

const char* to_string(StepOutcome outcome) {
  switch (outcome) {
    case StepOutcome::slower: return "slower";
    case StepOutcome::not_slower: return "not slower";
    case StepOutcome::inconclusive: return "inconclusive";
    case StepOutcome::skipped: return "skipped";
  }
  return "skipped";
}

StepOutcome step_outcome_from_string(const std::string& text) {
  for (StepOutcome o :
       {StepOutcome::slower, StepOutcome::not_slower, StepOutcome::inconclusive, StepOutcome::skipped})
    if (text == to_string(o)) return o;
  throw Error("unknown bisect step outcome '" + text + "' (slower, not slower, inconclusive, skipped)");
}

std::vector<double> pairs_so_far(const std::vector<BisectStep>& steps, const std::string& head,
                                 const std::string& base, const std::string& case_id) {
  for (auto s = steps.rbegin(); s != steps.rend(); ++s)
    if (s->head == head && s->base == base)
      if (const auto it = s->pairs.find(case_id); it != s->pairs.end()) return it->second;
  return {};
}

BisectLog::BisectLog(std::filesystem::path file, const BisectKey& key) : file_(std::move(file)) {
  bool same = false;
  for_each_json_line(file_, "bisect log entry", [&](const json& j, int line) {
    if (line == 1) {
      const json& k = j.at("bisect");
      // A log written before the key named its judging names none: started afresh.
      same = BisectKey{k.at("case"), k.at("good"), k.at("bad"), k.value("judging", "")} == key;
      return;
    }
    if (same) replayed_.push_back(step_from_json(j));
  });
  if (same) return;
  std::error_code ec;
  std::filesystem::create_directories(file_.parent_path(), ec);
  std::filesystem::remove(file_, ec);
  append_json_line(file_, key_json(key));
}

void BisectLog::append(const BisectStep& step) { append_json_line(file_, step_json(step)); }

}  // namespace perfgate
