#pragma once
// A distribution plot: one row per sample set (baseline, current), each a box (25th to 75th
// percentile, median line, whiskers at the 5th and 95th) over a strip of its samples.
#include <string>
#include <string_view>
#include <vector>

#include "report/svg_canvas.h"

namespace perfgate::svg {

struct SampleSet {
  std::string label;  // "baseline", "current"
  std::vector<double> samples;
  std::string colour;
};

std::string distribution_svg(const std::vector<SampleSet>& sets, const Format& format,
                             std::string_view x_title, std::string_view label);

}  // namespace perfgate::svg
