#include "stats/run_noise.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "stats/chi_squared.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// Sample standard deviation of `values` around `centre`, % of it.
double sigma_pct_of(std::span<const double> values, double centre) {
  if (values.size() < 2 || centre == 0) return 0;
  double sum = 0;
  for (double v : values) sum += (v - centre) * (v - centre);
  return 100 * std::sqrt(sum / static_cast<double>(values.size() - 1)) / std::abs(centre);
}

double mean_of(std::span<const double> values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

std::string printf_string(const char* format, double a, double b = 0) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, format, a, b);
  return buffer;
}

// The standard error of one run's median, % of it: 1.2533 x a robust sigma (1.4826 x the
// median absolute deviation) / sqrt(n).
double median_error_pct(const std::vector<double>& samples, double middle) {
  if (samples.size() < 2 || middle == 0) return 0;
  std::vector<double> deviations;
  for (double x : samples) deviations.push_back(std::abs(x - middle));
  const double sigma = 1.4826 * median(deviations);
  return 100 * 1.2533 * sigma / std::sqrt(static_cast<double>(samples.size())) / std::abs(middle);
}

}  // namespace

double drift_pct(const std::vector<double>& samples) {
  const std::size_t third = samples.size() / 3;
  if (third < 10) return 0;  // too few samples to tell a drift from jitter
  const std::span<const double> all(samples);
  const double middle = median(all);
  if (middle == 0) return 0;
  const double first = median(all.first(third)), last = median(all.last(third));
  // The standard error of a third's median, from the run's own jitter: 1.4826 x the median
  // absolute deviation of each third from its own median (so the drift itself does not count
  // as jitter) estimates a Gaussian sigma, a median's error is 1.2533 sigma / sqrt(n), and the
  // difference of two thirds has sqrt(2) times that. Only the drift beyond 4 such errors is real.
  std::vector<double> deviations;
  for (double x : all.first(third)) deviations.push_back(std::abs(x - first));
  for (double x : all.last(third)) deviations.push_back(std::abs(x - last));
  const double sigma = 1.4826 * median(deviations);
  const double error = std::sqrt(2.0) * 1.2533 * sigma / std::sqrt(static_cast<double>(third));
  return 100 * std::max(0.0, std::abs(last - first) - 4 * error) / std::abs(middle);
}

RunNoise run_noise(const std::vector<std::vector<double>>& runs, double min_pct, double clear_sigmas,
                   bool leave_odd_run_out) {
  RunNoise noise;
  std::vector<double> medians;
  double error_squares = 0;
  for (const auto& run : runs) {
    if (run.empty()) continue;
    medians.push_back(median(run));
    noise.drift_pct = std::max(noise.drift_pct, drift_pct(run));
    const double error = median_error_pct(run, medians.back());
    error_squares += error * error;
  }
  noise.runs = static_cast<int>(medians.size());
  if (medians.empty()) return noise;
  noise.median_error_pct = std::sqrt(error_squares / static_cast<double>(medians.size()));
  noise.centre = median(medians);
  if (noise.centre == 0 || medians.size() < 2) return noise;
  const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
  noise.range_pct = 100 * (*hi - *lo) / std::abs(noise.centre);

  // Which runs lie apart: judged against a robust sigma (1.4826 x the median absolute deviation
  // of the run medians), which runs in a second mode cannot inflate, and never closer than
  // min_pct.
  auto deviation_pct = [&](double m) { return 100 * std::abs(m - noise.centre) / std::abs(noise.centre); };
  std::vector<double> deviations;
  for (double m : medians) deviations.push_back(deviation_pct(m));
  // Nor closer than clear_sigmas x the precision of the medians themselves: runs agreeing to
  // 0.01% are not apart by 0.02% (an H200's DRAM stream).
  const double apart_pct =
      std::max({clear_sigmas * 1.4826 * median(deviations), min_pct, clear_sigmas * noise.median_error_pct});
  std::vector<double> kept;
  double farthest_pct = 0;
  for (double m : medians) {
    if (deviation_pct(m) > apart_pct) {
      ++noise.outlier_runs;
      farthest_pct = std::max(farthest_pct, deviation_pct(m));
    } else {
      kept.push_back(m);
    }
  }
  // The noise is the standard deviation of the run medians; from 4 runs up, a single run apart
  // is left out of it where a busy neighbour can have made it, not the case's own noise.
  noise.outlier_left_out = leave_odd_run_out && noise.outlier_runs == 1 && medians.size() >= 4;
  const std::vector<double>& counted = noise.outlier_left_out ? kept : medians;
  noise.sigma_pct = sigma_pct_of(counted, mean_of(counted));
  noise.counted_runs = static_cast<int>(counted.size());
  if (noise.counted_runs >= 2)
    noise.sigma_bound_pct = std::max(noise.sigma_pct, noise.median_error_pct) *
                            sigma_upper_factor(noise.counted_runs, kSigmaConfidence);

  if (noise.outlier_runs >= 2) {
    noise.unstable = true;
    noise.why = printf_string("multimodal: %.0f runs lie apart from the others (runs span %.1f%%)",
                              noise.outlier_runs, noise.range_pct);
  } else if (noise.drift_pct > std::max(clear_sigmas * noise.sigma_pct, min_pct)) {
    noise.unstable = true;
    noise.why =
        printf_string("drifting: a run moved %.1f%% beyond its own jitter between its first and last third",
                      noise.drift_pct);
  } else if (noise.outlier_left_out) {
    noise.why = printf_string("one run %.1f%% apart left out of the noise estimate", farthest_pct);
  } else if (noise.outlier_runs == 1) {
    noise.why = printf_string("one run %.1f%% apart counted: no neighbour slows this clock", farthest_pct);
  }
  return noise;
}

}  // namespace perfgate
