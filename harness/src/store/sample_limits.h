#pragma once
// Values no measurement gives, one rule for every file that stores samples or medians (results
// JSON, baselines and candidates, the history): a time is a finite number of ns from 1 ps to about
// 11 days, a relative time (relative_latency, a ratio to the reference workload) from 1e-9 to 1e9,
// every other metric finite, from 0 to 1e12. Outside that, a ratio of two medians can overflow
// into "inf%", or one absurd run can hide a real step in a history.
#include <optional>
#include <string>

namespace perfgate {

// Why `value` is no measurement of `metric` ("latency_ns sample -1 is not a measurement (expected
// 0.001 to 1e+15)", `what` naming the value: "sample", "median"); nothing when it is one.
std::optional<std::string> implausible_value(const std::string& metric, double value,
                                             const std::string& what = "sample");

}  // namespace perfgate
