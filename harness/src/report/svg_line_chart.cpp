#include "report/svg_line_chart.h"

#include <algorithm>

namespace perfgate::svg {

std::string line_chart_svg(const std::vector<LineSeries>& series, const LineChartAxes& axes,
                           std::string_view label, double height) {
  const std::size_t legend_rows = series.size() > 1 ? (series.size() + 3) / 4 : 0;
  const double width = 680, left = 80, right = width - 20, top = 20 + 14 * static_cast<double>(legend_rows);
  const double bottom = height - 50;
  std::vector<double> xs, ys;
  for (const auto& s : series)
    for (const auto& p : s.points) xs.push_back(p.x), ys.push_back(p.y);
  Scale x = fit_scale(xs, left + 10, right - 10, axes.x_log);
  if (!axes.x_labels.empty())
    x = Scale{-0.5, static_cast<double>(axes.x_labels.size()) - 0.5, left, right, false};
  if (!axes.x_log && axes.x_labels.empty() && !xs.empty()) {
    // Sweeps are over values like 64, 128, 256: pad by the domain only, not from zero.
    x.lo = *std::min_element(xs.begin(), xs.end()), x.hi = *std::max_element(xs.begin(), xs.end());
    const double pad = x.hi > x.lo ? (x.hi - x.lo) * 0.06 : 1;
    x.lo -= pad, x.hi += pad;
  }
  Scale y = fit_scale(ys, bottom, top, axes.y_log);
  if (!axes.y_log && y.lo > 0) y.lo = 0;  // times read against zero

  Canvas canvas(width, height, label);
  if (axes.x_labels.empty()) {
    draw_axes(canvas, x, y, axes.x_format, axes.y_format, axes.x_title, axes.y_title);
  } else {
    // Categorical: the y axis as usual, then one label per position (thinned when crowded).
    draw_axes(
        canvas, x, y, [](double) { return std::string(); }, axes.y_format, axes.x_title, axes.y_title);
    const std::size_t every = std::max<std::size_t>(1, axes.x_labels.size() / 8);
    for (std::size_t i = 0; i < axes.x_labels.size(); i += every)
      canvas.text(x(static_cast<double>(i)), bottom + 14, axes.x_labels[i], "middle", 10, "#555");
  }

  for (std::size_t i = 0; i < series.size(); ++i) {
    const LineSeries& s = series[i];
    const std::string colour(series_colour(i));
    std::vector<std::pair<double, double>> line;
    for (const auto& p : s.points) line.emplace_back(x(p.x), y(p.y));
    if (line.size() > 1) canvas.polyline(line, colour, 2);
    for (const auto& p : s.points)
      canvas.circle(x(p.x), y(p.y), 4, p.colour.empty() ? colour : p.colour, p.tooltip);
    if (series.size() > 1) {
      const double lx = left + 4 + static_cast<double>(i % 4) * 150;
      canvas.rect(lx, 6 + static_cast<double>(i / 4) * 14, 10, 10, colour);
      canvas.text(lx + 14, 15 + static_cast<double>(i / 4) * 14, s.label, "start", 10, colour);
    }
  }
  return canvas.str();
}

}  // namespace perfgate::svg
