#pragma once
// The search of `perfgate bisect`, with no building or measuring in it: given the commits of a
// range (good end first, bad end last) it says which commit to measure against which, and takes
// each step's verdict (store/bisect_log.h) until it can name the first slower commit.
//
// 1. The bad end against the good end, at the same moment: the range's total step. Not slower:
//    no commit is slower, and the search ends there (two builds).
// 2. Binary search for the first commit slower than the good end, over the commits that can
//    differ from their parent (one that changes only files the case cannot depend on measures as
//    its parent does, so it is never measured and never the culprit). A commit that does not
//    build or lacks the case is skipped, as `git bisect skip` does; an inconclusive verdict is
//    measured again, at most `remeasure` times, then set aside as the skipped are. Where set-aside
//    commits lie between the last not-slower and the first slower commit, the culprit is one of
//    them, and all are named.
// 3. The bad end against the culprit: slower again means the total step is split over several
//    commits, and step 2 goes on after the culprit, against it, for the next one.
// A commit needing a build past `max_builds` ends the search where it stands.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "store/bisect_log.h"

namespace perfgate {

struct BisectCommit {
  std::string sha;  // full
  std::string subject;
  bool unrelated = false;  // changes no file the case's build depends on (never measured)
};

struct BisectionSettings {
  int max_builds = 12;  // distinct commits built (or tried), both ends included
  int remeasure = 2;    // an inconclusive step is measured again at most this many times
};

// Measure commit `head` against commit `base` (indices into the commits) at the same moment.
struct Probe {
  std::size_t head = 0, base = 0;
  bool operator==(const Probe&) const = default;
};

// A first slower commit: one step of the range's total.
struct Culprit {
  std::size_t index = 0;                // the first slower commit where exact, else the last candidate
  std::vector<std::size_t> candidates;  // every commit that may be it, oldest first (index last)
  std::size_t base = 0;                 // what it was found slower than
  BisectStep step;                      // its own measurement against `base`
  bool exact() const { return candidates.size() == 1; }
};

enum class BisectEnd {
  running,
  found,               // culprits() names one or more
  none_slower,         // the bad end is not slower than the good end
  total_inconclusive,  // whether the bad end is slower stayed inconclusive
  out_of_builds,       // stopped at max_builds; range() is what is left
  good_unusable,       // the good end does not build or lacks the case
  bad_unusable,        // the bad end does not build or lacks the case
};
const char* to_string(BisectEnd end);

class Bisection {
 public:
  // `commits`: the good end first, the bad end last, at least two.
  Bisection(std::vector<BisectCommit> commits, BisectionSettings settings);

  // What to measure next; nullopt once ended.
  std::optional<Probe> next() const { return pending_; }
  // The verdict of next()'s probe (its head and base shas name it).
  void record(const BisectStep& step);

  BisectEnd end() const { return end_; }
  const std::vector<BisectCommit>& commits() const { return commits_; }
  const std::vector<Culprit>& culprits() const { return culprits_; }
  const std::optional<BisectStep>& total() const { return total_; }
  // The rest of the range after the last culprit was measured slower than it, but not decided.
  bool rest_undecided() const { return rest_undecided_; }
  // The last not-slower and first slower commit known: where an unfinished search stands.
  std::pair<std::size_t, std::size_t> range() const { return {lo_, hi_}; }
  int builds() const { return static_cast<int>(built_.size()); }
  std::size_t index_of(const std::string& sha) const;  // throws Error for a commit not in the range

 private:
  enum class Phase { total, search, rest, done };
  std::vector<std::size_t> candidates() const;
  void settle_search();
  void finish(BisectEnd end);
  void ask(Probe probe);

  std::vector<BisectCommit> commits_;
  BisectionSettings settings_;
  Phase phase_ = Phase::total;
  BisectEnd end_ = BisectEnd::running;
  std::optional<Probe> pending_;
  std::size_t base_ = 0, lo_ = 0, hi_ = 0;
  BisectStep hi_step_;               // the step that found hi_ slower
  std::set<std::size_t> set_aside_;  // skipped, or inconclusive past the budget
  std::set<std::size_t> built_;
  std::map<std::pair<std::size_t, std::size_t>, int> inconclusive_;  // (head, base) -> times
  std::vector<Culprit> culprits_;
  std::optional<BisectStep> total_;
  bool rest_undecided_ = false;
};

// How the culprits compare with the range's total: their changes multiplied, as a ratio.
double culprits_ratio(const std::vector<Culprit>& culprits);

}  // namespace perfgate
