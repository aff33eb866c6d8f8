#include "store/sample_limits.h"

#include <fmt/format.h>

#include <cmath>

#include "perfgate/metric_names.h"

namespace perfgate {

std::optional<std::string> implausible_value(const std::string& metric, double value,
                                             const std::string& what) {
  const bool ns = metric.ends_with("_ns"), relative = metric == metric::relative_latency;
  const double low = ns ? 1e-3 : relative ? 1e-9 : 0, high = ns ? 1e15 : relative ? 1e9 : 1e12;
  if (std::isfinite(value) && value >= low && value <= high) return std::nullopt;
  return fmt::format("{} {} {:g} is not a measurement (expected {:g} to {:g})", metric, what, value, low, high);
}

}  // namespace perfgate
