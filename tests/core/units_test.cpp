// The one formatter of values with their units, as every printer and payload shows them.
#include "core/units.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace perfgate {
namespace {

TEST(CoreUnits, MetricValuesCarryTheirUnit) {
  EXPECT_EQ(format_metric_value("latency_ns", 1070), "1.07 µs");
  EXPECT_EQ(format_metric_value("host_latency_ns", 812), "812 ns");
  EXPECT_EQ(format_metric_value("bandwidth_gbps", 2950), "2.95 TB/s");
  EXPECT_EQ(format_metric_value("gflops", 812.4), "812 GFLOP/s");
  EXPECT_EQ(format_metric_value("pct_peak_bw", 62), "62.0% of peak");
  EXPECT_EQ(format_metric_value("relative_latency", 1.2345), "1.23");
}

TEST(CoreUnits, AValueThatIsNotFiniteIsNotAvailable) {
  EXPECT_EQ(format_metric_value("latency_ns", std::numeric_limits<double>::quiet_NaN()), "n/a");
  EXPECT_EQ(format_metric_value("bandwidth_gbps", std::numeric_limits<double>::infinity()), "n/a");
}

}  // namespace
}  // namespace perfgate
