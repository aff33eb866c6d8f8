#pragma once
// A line chart of one or more series: sweeps (latency against one parameter axis, one line per
// setting of the other axes) and history trends (a case's median run after run).
#include <string>
#include <string_view>
#include <vector>

#include "report/svg_canvas.h"

namespace perfgate::svg {

struct LinePoint {
  double x = 0, y = 0;
  std::string tooltip;
  std::string colour;  // the dot's colour; empty: the series' colour
};

struct LineSeries {
  std::string label;
  std::vector<LinePoint> points;  // drawn in this order
};

struct LineChartAxes {
  std::string x_title, y_title;
  Format x_format = compact_number;
  Format y_format = compact_number;
  bool x_log = false, y_log = false;
  // Categorical x: labels at x = 0, 1, 2, ... instead of numeric ticks (e.g. run dates).
  std::vector<std::string> x_labels;
};

std::string line_chart_svg(const std::vector<LineSeries>& series, const LineChartAxes& axes,
                           std::string_view label, double height = 300);

}  // namespace perfgate::svg
