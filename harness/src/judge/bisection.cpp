#include "judge/bisection.h"

#include "perfgate/error.h"

namespace perfgate {

const char* to_string(BisectEnd end) {
  switch (end) {
    case BisectEnd::running: return "running";
    case BisectEnd::found: return "found";
    case BisectEnd::none_slower: return "none slower";
    case BisectEnd::total_inconclusive: return "total inconclusive";
    case BisectEnd::out_of_builds: return "out of builds";
    case BisectEnd::good_unusable: return "good end unusable";
    case BisectEnd::bad_unusable: return "bad end unusable";
  }
  return "running";
}

Bisection::Bisection(std::vector<BisectCommit> commits, BisectionSettings settings)
    : commits_(std::move(commits)), settings_(settings) {
  if (commits_.size() < 2) throw Error("bisect: a range needs a good and a bad commit");
  hi_ = commits_.size() - 1;
  ask({hi_, 0});
}

std::size_t Bisection::index_of(const std::string& sha) const {
  for (std::size_t i = 0; i < commits_.size(); ++i)
    if (commits_[i].sha == sha) return i;
  throw Error("bisect: the log names commit " + sha + ", which is not in the range");
}

void Bisection::finish(BisectEnd end) {
  end_ = end;
  phase_ = Phase::done;
  pending_.reset();
}

// A probe needing a build past the budget ends the search where it stands.
void Bisection::ask(Probe probe) {
  std::size_t needed = built_.size();
  needed += !built_.count(probe.head);
  needed += probe.base != probe.head && !built_.count(probe.base);
  if (needed > static_cast<std::size_t>(settings_.max_builds)) return finish(BisectEnd::out_of_builds);
  built_.insert(probe.head);
  built_.insert(probe.base);
  pending_ = probe;
}

// The commits left between lo_ and hi_ that may be the first slower one and can be measured.
std::vector<std::size_t> Bisection::candidates() const {
  std::vector<std::size_t> left;
  for (std::size_t i = lo_ + 1; i < hi_; ++i)
    if (!commits_[i].unrelated && !set_aside_.count(i)) left.push_back(i);
  return left;
}

// The middle candidate next, else the culprit is hi_ (or one of the set-aside commits before it).
void Bisection::settle_search() {
  const std::vector<std::size_t> left = candidates();
  if (!left.empty()) return ask({left[left.size() / 2], base_});
  Culprit c;
  for (std::size_t i = lo_ + 1; i < hi_; ++i)
    if (!commits_[i].unrelated && set_aside_.count(i)) c.candidates.push_back(i);
  c.candidates.push_back(hi_);
  c.index = hi_;
  c.base = base_;
  c.step = hi_step_;
  culprits_.push_back(c);
  if (hi_ == commits_.size() - 1) return finish(BisectEnd::found);
  phase_ = Phase::rest;
  ask({commits_.size() - 1, hi_});
}

void Bisection::record(const BisectStep& step) {
  if (!pending_) throw Error("bisect: a step recorded after the search ended");
  const Probe probe = *pending_;
  if (step.head != commits_[probe.head].sha || step.base != commits_[probe.base].sha)
    throw Error("bisect: the step measured " + step.head + " against " + step.base +
                ", the search asked for " + commits_[probe.head].sha + " against " +
                commits_[probe.base].sha);
  pending_.reset();
  const std::size_t last = commits_.size() - 1;
  const bool again = step.outcome == StepOutcome::inconclusive &&
                     ++inconclusive_[{probe.head, probe.base}] <= settings_.remeasure;
  if (again) return ask(probe);

  switch (phase_) {
    case Phase::total:
      if (step.outcome == StepOutcome::skipped)
        return finish(step.base_failed ? BisectEnd::good_unusable : BisectEnd::bad_unusable);
      total_ = step;
      if (step.outcome == StepOutcome::not_slower) return finish(BisectEnd::none_slower);
      if (step.outcome == StepOutcome::inconclusive) return finish(BisectEnd::total_inconclusive);
      phase_ = Phase::search;
      lo_ = 0;
      hi_ = last;
      hi_step_ = step;
      return settle_search();
    case Phase::search:
      if (step.outcome == StepOutcome::slower) {
        hi_ = probe.head;
        hi_step_ = step;
      } else if (step.outcome == StepOutcome::not_slower) {
        lo_ = probe.head;
      } else if (step.base_failed) {
        return finish(BisectEnd::good_unusable);
      } else {
        set_aside_.insert(probe.head);
      }
      return settle_search();
    case Phase::rest:
      if (step.outcome == StepOutcome::slower) {
        base_ = lo_ = culprits_.back().index;
        hi_ = last;
        hi_step_ = step;
        phase_ = Phase::search;
        return settle_search();
      }
      rest_undecided_ = step.outcome != StepOutcome::not_slower;
      return finish(BisectEnd::found);
    case Phase::done: break;
  }
}

double culprits_ratio(const std::vector<Culprit>& culprits) {
  double ratio = 1;
  for (const Culprit& c : culprits) ratio *= c.step.ratio > 0 ? c.step.ratio : 1;
  return ratio;
}

}  // namespace perfgate
