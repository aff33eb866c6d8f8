#include "stats/change_points.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "stats/chi_squared.h"
#include "stats/student_t.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

constexpr double kSeriesNoiseConfidence = 0.9;

// The run-to-run sigma of a series of logs from its neighbours' differences: their 75th
// percentile / (1.1503 x sqrt(2)) (the 75th percentile of a half-normal is 1.1503 sigma). A
// step moves one difference and an odd run two, so neither moves it while they are under a
// quarter of the differences; runs alternating between two modes move a quarter or more (from
// one run in ten in the other mode, at random), so the modes' distance becomes the noise and
// neither mode is mistaken for a step. 0 under 2 values.
double neighbour_sigma(std::span<const double> logs) {
  if (logs.size() < 2) return 0;
  std::vector<double> steps;
  for (std::size_t i = 1; i < logs.size(); ++i) steps.push_back(std::fabs(logs[i] - logs[i - 1]));
  std::sort(steps.begin(), steps.end());
  const double position = 0.75 * static_cast<double>(steps.size() - 1);
  const std::size_t below = static_cast<std::size_t>(position);
  const double fraction = position - static_cast<double>(below);
  const double q75 =
      below + 1 < steps.size() ? steps[below] * (1 - fraction) + steps[below + 1] * fraction : steps[below];
  return q75 / (1.1503 * std::sqrt(2.0));
}

// Sums of the log values and their squares, so any range's mean and variance cost O(1).
class Prefix {
 public:
  explicit Prefix(std::span<const double> logs)
      : offset_(logs.empty() ? 0 : logs[0]), sum_(logs.size() + 1), squares_(logs.size() + 1) {
    for (std::size_t i = 0; i < logs.size(); ++i) {
      const double x = logs[i] - offset_;
      sum_[i + 1] = sum_[i] + x;
      squares_[i + 1] = squares_[i] + x * x;
    }
  }
  // Of the logs less the first (which keeps the squares' sums well conditioned); level() is the log's own.
  double mean(int begin, int end) const { return (sum_[end] - sum_[begin]) / (end - begin); }
  double level(int begin, int end) const { return offset_ + mean(begin, end); }
  // Sample variance (n - 1), never below a relative spread of 1e-6: identical runs still test.
  double variance(int begin, int end) const {
    const int n = end - begin;
    if (n < 2) return 1e-12;
    const double m = mean(begin, end);
    const double v = (squares_[end] - squares_[begin] - n * m * m) / (n - 1);
    return std::max(v, 1e-12);
  }

 private:
  double offset_;
  std::vector<double> sum_, squares_;
};

struct TTest {
  double t = 0, df = 1, difference = 0, standard_error = 0, p = 1;
};

// Student's t with the pooled variance: a short side cannot claim a small spread of its own
// (five runs that all fell in one mode of a bimodal case would, under Welch's test).
// Without the p-value (the incomplete beta function), which the search needs only for its best split.
TTest t_statistic(const Prefix& prefix, int begin, int cut, int end) {
  const int na = cut - begin, nb = end - cut;
  TTest w;
  w.df = std::max(1, na + nb - 2);
  const double pooled =
      std::max(((na - 1) * prefix.variance(begin, cut) + (nb - 1) * prefix.variance(cut, end)) / w.df, 1e-12);
  w.difference = prefix.mean(cut, end) - prefix.mean(begin, cut);
  w.standard_error = std::sqrt(pooled * (1.0 / na + 1.0 / nb));
  w.t = w.difference / w.standard_error;
  return w;
}

TTest t_test(const Prefix& prefix, int begin, int cut, int end) {
  TTest w = t_statistic(prefix, begin, cut, end);
  w.p = student_t_p(w.t, w.df);
  return w;
}

// Binary segmentation of [begin, end): appends the cuts it finds.
void split(const Prefix& prefix, int begin, int end, const ChangePointSettings& s, std::vector<int>& cuts) {
  const int m = s.min_segment;
  const int candidates = end - begin - 2 * m + 1;
  if (candidates < 1) return;
  int best = -1;
  double best_t = -1;
  for (int k = begin + m; k <= end - m; ++k) {
    const double t = std::fabs(t_statistic(prefix, begin, k, end).t);
    if (t > best_t) best_t = t, best = k;
  }
  if (t_test(prefix, begin, best, end).p * candidates >= s.significance) return;
  cuts.push_back(best);
  split(prefix, begin, best, s, cuts);
  split(prefix, best, end, s, cuts);
}

struct Cut {
  int index = 0;
  bool known = false;
};

// Whether the runs on the two sides of a cut are a mix of two modes rather than two levels: a
// run on each side at the other side's level (three quarters of the way to the other side's mean
// or past it), or two on one side. A case whose runs fall into two modes and keep one for
// several runs in a row (an H200's q4_0_q8_matvec ran 1.3% faster in runs 2-5 and 15-16 of 30
// A/A runs) shows a block of one mode as a step, which the neighbouring differences cannot see
// as noise; a level that changed leaves no run behind at the old one. Noise puts runs there on
// both sides of a step of k sigmas only when they stray 3k/4 sigmas (at a 6-sigma step, about 1
// run in 3,000 each): seeded studies find such steps as often as without this rule. What it gives
// up: a change that leaves a case bimodal, or a step smaller than the distance between its
// modes, is read as a mix (docs/history.md).
bool two_modes_mixed(std::span<const double> raw_logs, const Prefix& prefix, int begin, int cut, int end) {
  const double before = prefix.level(begin, cut), after = prefix.level(cut, end);
  const double toward_after = before + 0.75 * (after - before),
               toward_before = after - 0.75 * (after - before);
  const bool up = after > before;
  const auto at_after = [&](double x) { return up ? x >= toward_after : x <= toward_after; };
  const auto at_before = [&](double x) { return up ? x <= toward_before : x >= toward_before; };
  const auto before_at_after = std::count_if(raw_logs.begin() + begin, raw_logs.begin() + cut, at_after);
  const auto after_at_before = std::count_if(raw_logs.begin() + cut, raw_logs.begin() + end, at_before);
  return (before_at_after >= 1 && after_at_before >= 1) || before_at_after >= 2 || after_at_before >= 2;
}

// How strongly the cut between [begin, cut) and [cut, end) stands: its corrected p-value, or
// infinity when it cannot stand at all (too short a side, too small a step, or, where no known
// boundary makes the cut, two modes mixed across it).
double weakness(std::span<const double> raw_logs, const Prefix& prefix, int begin, const Cut& cut, int end,
                const ChangePointSettings& s) {
  const int m = std::max(s.min_segment, 2);
  if (cut.index - begin < m || end - cut.index < m) return std::numeric_limits<double>::infinity();
  const TTest w = t_test(prefix, begin, cut.index, end);
  if (100 * std::fabs(std::expm1(w.difference)) < s.min_magnitude_pct)
    return std::numeric_limits<double>::infinity();
  if (!cut.known && two_modes_mixed(raw_logs, prefix, begin, cut.index, end))
    return std::numeric_limits<double>::infinity();
  const double looked_at = cut.known ? 1 : std::max(1, end - begin - 2 * s.min_segment + 1);
  const double corrected = w.p * looked_at;
  return corrected < s.significance ? 0 : corrected;  // 0: stands
}

// One run far from its neighbours (a machine hiccup, a process in a slow mode) would swell the
// t-test's pooled variance enough to hide a real step: each log value is held within
// kOddRunSigmas robust sigmas (from neighbouring differences) of the median of the runs around
// it. That median follows a step (a window of 2 x min_segment + 1 runs has a majority on the
// step's side from its first run on), so a step survives whole while an odd run weighs as a
// run at that limit would.
constexpr double kOddRunSigmas = 6;

void limit_odd_runs(std::vector<double>& logs, int min_segment) {
  const int n = static_cast<int>(logs.size());
  if (n < 3) return;
  const double sigma = std::max(neighbour_sigma(logs), 1e-6);
  const int half = std::max(min_segment, 2);
  std::vector<double> limited(logs), window;
  for (int i = 0; i < n; ++i) {
    window.assign(logs.begin() + std::max(0, i - half), logs.begin() + std::min(n, i + half + 1));
    const double around = median(window);
    limited[i] = std::clamp(logs[i], around - kOddRunSigmas * sigma, around + kOddRunSigmas * sigma);
  }
  logs = std::move(limited);
}

}  // namespace

double series_noise_pct(std::span<const double> values) {
  if (values.size() < 3) return 0;
  std::vector<double> logs;
  for (double v : values)
    if (v > 0 && std::isfinite(v)) logs.push_back(std::log(v));
  return 100 * std::expm1(neighbour_sigma(logs));
}

ChangePointSettings settings_for_series(std::span<const double> values, const ChangePointSettings& s) {
  ChangePointSettings out = s;
  const int n = static_cast<int>(values.size());
  if (n < 3) return out;
  out.noise_pct = series_noise_pct(values) * sigma_upper_factor(n - 1, kSeriesNoiseConfidence);
  out.min_magnitude_pct = std::max(s.min_magnitude_pct, s.magnitude_sigmas * out.noise_pct);
  out.drift_max_pct = std::max(s.drift_max_pct, s.drift_sigmas * out.noise_pct);
  return out;
}

Segmentation find_change_points(std::span<const double> values, std::span<const int> boundaries,
                                const ChangePointSettings& s) {
  const int n = static_cast<int>(values.size());
  std::vector<double> logs;
  logs.reserve(values.size());
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) throw std::invalid_argument("change points need positive values");
    logs.push_back(std::log(v));
  }
  const std::vector<double> raw_logs = logs;  // a mode's runs, before they are held near their neighbours
  limit_odd_runs(logs, s.min_segment);
  const Prefix prefix(logs);

  // 1. Known boundaries; 2. binary segmentation within each piece.
  std::vector<int> known;
  for (int b : boundaries)
    if (b > 0 && b < n) known.push_back(b);
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  std::vector<Cut> cuts;
  int begin = 0;
  for (std::size_t i = 0; i <= known.size(); ++i) {
    const int end = i < known.size() ? known[i] : n;
    std::vector<int> found;
    split(prefix, begin, end, s, found);
    for (int f : found) cuts.push_back({f, false});
    if (i < known.size()) cuts.push_back({end, true});
    begin = end;
  }
  std::sort(cuts.begin(), cuts.end(), [](const Cut& a, const Cut& b) { return a.index < b.index; });

  // 3. Merge: remove the weakest failing cut until every cut stands.
  for (;;) {
    int weakest = -1;
    double worst = 0;
    for (std::size_t i = 0; i < cuts.size(); ++i) {
      const int left = i == 0 ? 0 : cuts[i - 1].index;
      const int right = i + 1 == cuts.size() ? n : cuts[i + 1].index;
      const double w = weakness(raw_logs, prefix, left, cuts[i], right, s);
      if (w > worst) worst = w, weakest = static_cast<int>(i);
    }
    if (weakest < 0) break;
    cuts.erase(cuts.begin() + weakest);
  }

  Segmentation out;
  if (n == 0) return out;
  std::vector<int> edges{0};
  for (const Cut& c : cuts) edges.push_back(c.index);
  edges.push_back(n);
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    Segment seg{edges[i], edges[i + 1], 0, 0};
    seg.median = median(values.subspan(seg.begin, seg.end - seg.begin));
    seg.centre = std::exp(prefix.level(seg.begin, seg.end));
    out.segments.push_back(seg);
  }
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    const Segment& a = out.segments[i];
    const Segment& b = out.segments[i + 1];
    const TTest w = t_test(prefix, a.begin, b.begin, b.end);
    const double half = student_t_quantile(s.significance, w.df) * w.standard_error;
    ChangePoint c;
    c.index = b.begin;
    c.median_before = a.median;
    c.median_after = b.median;
    c.magnitude_pct = 100 * std::expm1(w.difference);
    c.low_pct = 100 * std::expm1(w.difference - half);
    c.high_pct = 100 * std::expm1(w.difference + half);
    c.p_value = w.p;
    c.known_boundary = cuts[i].known;
    out.changes.push_back(c);
  }
  return out;
}

Drift find_drift(const Segmentation& segmentation, double reference, bool lower_is_better,
                 const ChangePointSettings& s) {
  Drift d;
  if (segmentation.segments.empty()) return d;
  // Worse is larger when lower is better: compare in that orientation.
  auto worse_pct = [&](double now, double then) {
    return 100 * (lower_is_better ? now / then - 1 : then / now - 1);
  };
  const auto& segments = segmentation.segments;
  for (std::size_t i = 1; i < segments.size(); ++i) {
    const bool better = lower_is_better ? segments[i].centre < segments[d.best_segment].centre
                                        : segments[i].centre > segments[d.best_segment].centre;
    if (better) d.best_segment = static_cast<int>(i);
  }
  const Segment& newest = segments.back();
  d.vs_best_pct = worse_pct(newest.centre, segments[d.best_segment].centre);
  // A reference is compared only once the newest segment is long enough to stand on its own.
  if (reference > 0 && newest.end - newest.begin >= s.min_segment)
    d.vs_reference_pct = worse_pct(newest.centre, reference);
  d.exceeded = d.vs_best_pct > s.drift_max_pct || d.vs_reference_pct > s.drift_max_pct;
  return d;
}

}  // namespace perfgate
