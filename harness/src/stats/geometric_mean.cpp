#include "stats/geometric_mean.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

// The regularized incomplete beta I_x(a, b) by its continued fraction (modified Lentz), which
// converges fast for x < (a + 1) / (a + b + 2); the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) covers
// the rest.
double incomplete_beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::fabs(d) < tiny ? tiny : d);
  double f = d;
  for (int m = 1; m < 500; ++m) {
    for (int half = 0; half < 2; ++half) {
      const double coefficient = half == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                           : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + coefficient * d;
      d = 1 / (std::fabs(d) < tiny ? tiny : d);
      c = 1 + coefficient / c;
      if (std::fabs(c) < tiny) c = tiny;
      f *= c * d;
      if (half == 1 && std::fabs(c * d - 1) < 1e-15) return f;
    }
  }
  return f;
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * incomplete_beta_fraction(a, b, x) / a;
  return 1 - front * incomplete_beta_fraction(b, a, 1 - x) / b;
}

// P(|T| <= t) for Student's t with `dof` degrees of freedom.
double t_central_probability(double t, int dof) {
  const double v = dof;
  return 1 - incomplete_beta(v / 2, 0.5, v / (v + t * t));
}

}  // namespace

double student_t_quantile(double confidence, int dof) {
  if (dof < 1 || !(confidence > 0 && confidence < 1)) return std::numeric_limits<double>::quiet_NaN();
  double low = 0, high = 1;
  while (t_central_probability(high, dof) < confidence) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double mid = (low + high) / 2;
    (t_central_probability(mid, dof) < confidence ? low : high) = mid;
  }
  return (low + high) / 2;
}

std::optional<GeometricMean> geometric_mean(std::span<const double> ratios, double confidence) {
  std::vector<double> logs;
  for (double r : ratios)
    if (r > 0 && std::isfinite(r)) logs.push_back(std::log(r));
  if (logs.empty()) return std::nullopt;
  const double n = logs.size();
  double mean = 0;
  for (double x : logs) mean += x / n;
  GeometricMean g;
  g.count = int(logs.size());
  g.ratio = std::exp(mean);
  g.confidence = confidence;
  g.high = std::numeric_limits<double>::infinity();
  if (logs.size() < 2) return g;
  double squares = 0;
  for (double x : logs) squares += (x - mean) * (x - mean);
  const double half_width = student_t_quantile(confidence, g.count - 1) * std::sqrt(squares / (n - 1) / n);
  g.low = std::exp(mean - half_width);
  g.high = std::exp(mean + half_width);
  return g;
}

std::vector<double> judged_latency_ratios(const RunResult& run) {
  std::vector<double> ratios;
  for (const auto& c : run.cases) {
    if (c.verdict != Verdict::pass && c.verdict != Verdict::improved && c.verdict != Verdict::regressed &&
        c.verdict != Verdict::inconclusive)
      continue;
    const Judgement* j = main_judgement(c);
    if (!j || (j->metric != metric::latency_ns && j->metric != metric::relative_latency)) continue;
    if (j->baseline_median > 0 && j->current_median > 0)
      ratios.push_back(j->current_median / j->baseline_median);
  }
  return ratios;
}

std::optional<GeometricMean> run_geometric_mean(const RunResult& run) {
  const std::vector<double> ratios = judged_latency_ratios(run);
  return geometric_mean(ratios);
}

std::string geometric_mean_text(const GeometricMean& g) {
  char text[200];
  const int pct = int(std::lround(g.confidence * 100));
  const char* cases = g.count == 1 ? "case" : "cases";
  if (!std::isfinite(g.high))
    std::snprintf(text, sizeof text, "geomean latency x%.3f (%+.1f%%) over %d judged %s", g.ratio,
                  100 * (g.ratio - 1), g.count, cases);
  else
    std::snprintf(text, sizeof text,
                  "geomean latency x%.3f (%+.1f%%), %d%% interval x%.3f..x%.3f, over %d judged %s", g.ratio,
                  100 * (g.ratio - 1), pct, g.low, g.high, g.count, cases);
  return text;
}

}  // namespace perfgate
