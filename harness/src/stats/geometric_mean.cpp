#include "stats/geometric_mean.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"
#include "stats/student_t.h"

namespace perfgate {

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
  const double half_width = student_t_quantile(1 - confidence, g.count - 1) * std::sqrt(squares / (n - 1) / n);
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
