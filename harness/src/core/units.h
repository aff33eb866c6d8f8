#pragma once
// Values with their units for people to read, as every table, report and page prints them.
#include <string>
#include <string_view>

namespace perfgate {

// `value` with `significant` digits before and after the point together: fixed_digits(3.14159, 3)
// is "3.14", fixed_digits(812.4, 3) is "812".
std::string fixed_digits(double value, int significant);

std::string format_duration_ns(double ns);  // "812 ns", "3.41 µs", "12.6 ms"
std::string format_bandwidth(double gbps);  // "97.3 GB/s", "2.95 TB/s"
std::string format_flops(double gflops);    // "812 GFLOP/s", "61.2 TFLOP/s"
// A value of the named metric (perfgate/metric_names.h) in its unit: a duration for *_ns, a
// bandwidth, a rate, "62.0% of peak" for pct_peak_bw; 3 significant digits without a unit else;
// "n/a" for a value that is not finite.
std::string format_metric_value(std::string_view metric, double value);

}  // namespace perfgate
