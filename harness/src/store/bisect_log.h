#pragma once
// A bisect's log (`perfgate bisect`): one JSON line per measured step, appended as each ends, in
// the bisect's work folder. The first line names what is bisected (case, good and bad commits);
// a bisect started again with the same ones replays the steps and goes on where it stopped.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace perfgate {

// One step's verdict on a commit, against the commit it was measured with at the same moment.
enum class StepOutcome { slower, not_slower, inconclusive, skipped };
const char* to_string(StepOutcome outcome);
StepOutcome step_outcome_from_string(const std::string& text);  // throws Error

struct BisectStep {
  std::string head;  // the commit measured (full sha)
  std::string base;  // the commit it was measured against (full sha)
  StepOutcome outcome = StepOutcome::skipped;
  bool base_failed = false;  // skipped because of the base's build or case, not the head's
  double ratio = 0;          // median head / base latency over the rounds; 0 = not measured
  double low = 0, high = 0;  // its interval
  int rounds = 0;
  // `bisect --pairs`: each case's pair ratios (head / base, one per fresh pair) this step measured;
  // an inconclusive step measured again pools them with its earlier ones (judge/pair_spread.h).
  std::map<std::string, std::vector<double>> pairs;
  std::string message;  // the A/B line, or why it was skipped
  double build_s = 0;   // spent building for this step
  double measure_s = 0;
};

// The pairs a case's earlier measurements of the step `head` against `base` gave: each
// measurement keeps every pair so far, so the latest holds them all (empty: none yet).
std::vector<double> pairs_so_far(const std::vector<BisectStep>& steps, const std::string& head,
                                 const std::string& base, const std::string& case_id);

// What a log is of: a log of another bisect, or of this one judged under other settings, is
// never replayed into this one (a step's verdict is the allowance's and the pairs').
struct BisectKey {
  std::string case_id;
  std::string good, bad;  // full shas
  std::string judging;    // what each step is judged under: "allowed 0.2%, 10 pairs"
  bool operator==(const BisectKey&) const = default;
};

class BisectLog {
 public:
  // Opens `file`: reads its steps where its first line names `key`; starts it afresh (writing
  // the key) where it is missing or names another bisect. A malformed line throws Error naming
  // the file and line.
  BisectLog(std::filesystem::path file, const BisectKey& key);
  const std::vector<BisectStep>& replayed() const { return replayed_; }
  void append(const BisectStep& step);
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::vector<BisectStep> replayed_;
};

}  // namespace perfgate
