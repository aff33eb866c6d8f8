#pragma once
// Building a metric from samples: rates from per-dispatch latencies, runs pooled into one sample
// set, and the samples with their summary.
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

// The samples with their summary (stats/summary.h).
Metric make_metric(std::vector<double> samples);

// `amount / ns` for each latency sample (bytes -> GB/s, flops -> GFLOP/s); 0 where a sample is 0.
std::vector<double> rate_per_ns(const std::vector<double>& latency_ns, double amount);

// Every sample of a metric, pooled over its runs.
std::vector<double> pooled(const std::vector<std::vector<double>>& runs);

}  // namespace perfgate
