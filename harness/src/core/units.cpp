#include "core/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "perfgate/metric_names.h"

namespace perfgate {

std::string fixed_digits(double value, int significant) {
  char text[64];
  const int digits = value == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::abs(value)))) + 1;
  std::snprintf(text, sizeof text, "%.*f", std::max(0, significant - digits), value);
  return text;
}

std::string format_duration_ns(double ns) {
  if (ns < 1e3) return fixed_digits(ns, 3) + " ns";
  if (ns < 1e6) return fixed_digits(ns / 1e3, 3) + " µs";
  if (ns < 1e9) return fixed_digits(ns / 1e6, 3) + " ms";
  return fixed_digits(ns / 1e9, 3) + " s";
}

std::string format_bandwidth(double gbps) {
  return gbps >= 1000 ? fixed_digits(gbps / 1000, 3) + " TB/s" : fixed_digits(gbps, 3) + " GB/s";
}

std::string format_flops(double gflops) {
  return gflops >= 1000 ? fixed_digits(gflops / 1000, 3) + " TFLOP/s" : fixed_digits(gflops, 3) + " GFLOP/s";
}

std::string format_metric_value(std::string_view metric, double value) {
  if (!std::isfinite(value)) return "n/a";
  if (metric.ends_with("_ns")) return format_duration_ns(value);
  if (metric == metric::bandwidth_gbps) return format_bandwidth(value);
  if (metric == metric::gflops) return format_flops(value);
  if (metric == metric::pct_peak_bw) return fixed_digits(value, 3) + "% of peak";
  return fixed_digits(value, 3);
}

}  // namespace perfgate
