#include "stats/metric_samples.h"

#include <utility>

#include "stats/summary.h"

namespace perfgate {

Metric make_metric(std::vector<double> samples) {
  Metric m;
  m.samples = std::move(samples);
  m.summary = summarize(m.samples);
  return m;
}

std::vector<double> rate_per_ns(const std::vector<double>& latency_ns, double amount) {
  std::vector<double> out;
  out.reserve(latency_ns.size());
  for (double ns : latency_ns) out.push_back(ns > 0 ? amount / ns : 0);
  return out;
}

std::vector<double> pooled(const std::vector<std::vector<double>>& runs) {
  std::vector<double> all;
  for (const auto& run : runs) all.insert(all.end(), run.begin(), run.end());
  return all;
}

}  // namespace perfgate
