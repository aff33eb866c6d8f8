#pragma once
// Change points in one case's history: the runs' values (one per run, oldest first) cut into
// segments of constant level, and the steps between them. Pure functions, deterministic.
//
// The method: binary segmentation with a two-sample t-test, then a merge pass (split and merge, as
// Apache Otava does with its t-test variant of E-divisive means), on the logarithm of each
// run's value, so a step is a ratio and a 2% step means the same at 10 ns and at 10 ms.
//   1. Known boundaries (a new kernel source hash or driver) cut the series first: a segment
//      never spans two builds of a kernel.
//   2. Within each piece, every split that leaves at least `min_segment` runs on both sides is
//      scored by Student's t (pooled variance); the best one is kept when its p-value, times the number of
//      splits that were looked at (Bonferroni: the position was chosen by looking), is below `significance`;
//      both halves are searched again.
//   3. Merge: the weakest cut (largest corrected p-value) whose step fails the test, or is
//      smaller than `min_magnitude_pct`, or has fewer than `min_segment` runs on a side, or
//      (where no known boundary makes it) has runs of each side's level on the other (a case
//      with two modes, not a step), is removed and the test redone on the joined neighbours,
//      until every cut stands. A cut at a
//      known boundary is tested at that one position (no correction).
// Why this and not the others (docs/history.md): the t-test's variance is the spread between
// runs, which is what moves a run's median (a run's own sample spread understates it several
// times over on every machine perfgate measured), so its significance is honest on each machine
// without a tuned penalty (asv's L1/Potts fit needs one, and weights points by their own
// intervals); the minimum segment keeps one outlier run from becoming a change point (Otava's
// users asked for exactly that); unlike Perfherder's fixed 12-run windows it finds steps near
// the start of a short history and gives the whole segment's evidence to each step.
#include <span>
#include <vector>

namespace perfgate {

struct ChangePointSettings {
  int min_segment = 5;             // runs on each side of a change point, at least
  double min_magnitude_pct = 0;    // smaller steps are merged away, however significant
  double significance = 0.001;     // corrected p-value a step must stay below
  double drift_max_pct = 0;        // newest segment past the best one (or the baseline) by more: drift
  // What settings_for_series sets the two above from, at least: the series' own noise times these.
  double magnitude_sigmas = 4;
  double drift_sigmas = 8;
  double noise_pct = 0;            // the series' noise bound they came from (settings_for_series)
};

// The run-to-run noise of a series of run values, % of them, from the differences of
// neighbouring runs' logs (their 75th percentile, scaled to a Gaussian sigma), which a step
// moves by one difference only and one odd run by two; 0 under 3 values. Runs alternating
// between two modes make it as large as the modes are apart, so such a case needs steps past
// its modes to report one.
double series_noise_pct(std::span<const double> values);

// `s` for one series: the smallest step it reports is at least magnitude_sigmas x the upper
// bound (90%, stats/chi_squared.h) of series_noise_pct, the drift it allows at least
// drift_sigmas x that; min_magnitude_pct and drift_max_pct stay as floors. A GPU's DRAM stream
// repeating to 0.02% reports a 0.3% step; a shared VM's case moving 3% between runs needs 14%.
ChangePointSettings settings_for_series(std::span<const double> values, const ChangePointSettings& s);

struct Segment {
  int begin = 0, end = 0;  // runs [begin, end)
  double median = 0;       // of the runs' values
  double centre = 0;       // geometric mean of the runs' values: what the tests compare
};

struct ChangePoint {
  int index = 0;  // the first run after the step
  double median_before = 0, median_after = 0;
  double magnitude_pct = 0;  // centre after / centre before - 1, in %: positive = larger values
  // The (1 - significance) confidence interval of the magnitude, in %.
  double low_pct = 0, high_pct = 0;
  double p_value = 1;           // t-test of the two segments (uncorrected)
  bool known_boundary = false;  // at a cut given by the caller (a new source hash or driver)
};

struct Segmentation {
  std::vector<Segment> segments;     // cover every run, oldest first
  std::vector<ChangePoint> changes;  // one between each pair of neighbouring segments
};

// `values` are positive (a non-positive value throws std::invalid_argument); `boundaries` are
// run indices where a new regime starts (sorted or not; out-of-range ones are ignored).
Segmentation find_change_points(std::span<const double> values, std::span<const int> boundaries,
                                const ChangePointSettings& settings);

// The newest segment against the best one of the history (the lowest centre when lower is
// better) and against a reference level (the approved baseline's median, 0 = none).
struct Drift {
  int best_segment = 0;
  double vs_best_pct = 0;       // newest centre / best centre - 1, in %, positive = worse
  double vs_reference_pct = 0;  // newest centre / reference - 1, in %, 0 without a reference
  bool exceeded = false;        // either one past drift_max_pct
};
Drift find_drift(const Segmentation& segmentation, double reference, bool lower_is_better,
                 const ChangePointSettings& settings);

}  // namespace perfgate
