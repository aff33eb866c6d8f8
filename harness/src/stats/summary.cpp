#include "stats/summary.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace perfgate {
namespace {

double percentile_of_sorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  if (sorted[hi] == sorted[lo]) return sorted[lo];  // also keeps inf - inf out of the sum
  return sorted[lo] + (rank - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

std::vector<double> sorted_copy(std::span<const double> samples) {
  std::vector<double> v(samples.begin(), samples.end());
  std::sort(v.begin(), v.end());
  return v;
}

double percentile(std::span<const double> samples, double p) {
  return percentile_of_sorted(sorted_copy(samples), p);
}

double median(std::span<const double> samples) { return percentile(samples, 50); }

Summary summarize(std::span<const double> samples) {
  Summary s;
  if (samples.empty()) return s;
  const std::vector<double> sorted = sorted_copy(samples);
  const auto n = static_cast<double>(sorted.size());
  s.count = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  double sum = 0;
  for (double x : sorted) sum += x;
  s.mean = sum / n;
  // Two-pass variance: the one-pass sum-of-squares formula cancels badly for ns-scale
  // latencies whose spread is a tiny fraction of their size.
  double squares = 0;
  for (double x : sorted) squares += (x - s.mean) * (x - s.mean);
  s.stddev = sorted.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
  s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
  s.median = percentile_of_sorted(sorted, 50);
  s.p5 = percentile_of_sorted(sorted, 5);
  s.p95 = percentile_of_sorted(sorted, 95);
  std::vector<double> deviations;
  deviations.reserve(sorted.size());
  for (double x : sorted) deviations.push_back(std::abs(x - s.median));
  std::sort(deviations.begin(), deviations.end());
  s.mad = percentile_of_sorted(deviations, 50);
  return s;
}

}  // namespace perfgate
