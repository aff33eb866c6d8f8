#pragma once
// How far a case's separate runs land from each other: the noise a verdict must not mistake
// for a regression. Pure functions over per-run samples (docs/measuring.md, "How a case is judged").
//
//   centre     median of the per-run medians
//   apart      a run whose median lies farther from the centre than `clear_sigmas` x a robust
//              sigma (1.4826 x the median absolute deviation of the run medians, which runs in a
//              second mode cannot inflate), than `min_pct` and than `clear_sigmas` x the
//              precision of the runs' own medians
//   sigma      standard deviation of the per-run medians, % of the centre; from 4 runs up a
//              single run apart is left out of it where a neighbour can have slowed it (the
//              caller says): one odd run neither widens it nor, as a median absolute deviation
//              of two equal runs would, narrows it absurdly
//   bound      the sigma a verdict rests on: the larger of sigma and the precision of the runs'
//              own medians (runs cannot agree better than each median is known, so a sigma
//              below that is luck), times sigma_upper_factor at kSigmaConfidence for the runs
//              counted: five runs' spread is widened 1.94x, twenty runs' 1.28x, so the
//              allowance shrinks as runs accumulate (stats/chi_squared.h)
//   drift      the largest change within one run, last third against first third of its
//              samples, beyond what the run's own jitter explains
//   unstable   two or more runs apart (the runs fall into separate modes), or a run drifting by
//              more than clear_sigmas x sigma (and min_pct): the allowance must then cover what
//              the runs showed, not what a Gaussian would
#include <string>
#include <vector>

namespace perfgate {

// One-sided confidence of RunNoise::sigma_bound_pct.
inline constexpr double kSigmaConfidence = 0.9;

struct RunNoise {
  int runs = 0;                   // runs with samples
  double centre = 0;              // median of the run medians
  double sigma_pct = 0;           // run-to-run standard deviation, % of the centre
  double median_error_pct = 0;    // root mean square of the runs' medians' standard errors, %
  int counted_runs = 0;           // runs sigma was computed from
  double sigma_bound_pct = 0;     // upper bound of the true sigma (see above); 0 under 2 runs
  double range_pct = 0;           // (largest - smallest run median) / centre, %
  double drift_pct = 0;           // largest within-run drift, % of that run's median
  int outlier_runs = 0;           // runs clearly apart from the others
  bool outlier_left_out = false;  // sigma leaves out the one farthest run
  bool unstable = false;
  std::string why;  // empty unless something above is worth saying
};

// `min_pct`: deviations smaller than this are never outliers or drift (the floor of the
// allowance); `clear_sigmas`: how many sigmas make a run or a drift stand apart.
// `leave_odd_run_out`: whether a single run apart may be a neighbour's doing and is left out of
// sigma (true where the host's cores keep the time); where not, it counts like any other.
RunNoise run_noise(const std::vector<std::vector<double>>& runs, double min_pct, double clear_sigmas,
                   bool leave_odd_run_out = true);

// Drift of one run: |median of the last third - median of the first third| / median, %, less
// 4 standard errors of that difference (from the run's jitter); 0 with fewer than 30 samples.
double drift_pct(const std::vector<double>& samples);

}  // namespace perfgate
