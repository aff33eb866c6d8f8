#include "report/svg_roofline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "report/svg_canvas.h"

namespace perfgate::svg {

std::string roofline_svg(const std::vector<RooflinePoint>& points, double peak_bandwidth_gbps,
                         double peak_gflops) {
  const double width = 680, height = 400, left = 70, right = width - 20, top = 20, bottom = height - 50;
  std::vector<double> xs, ys;
  for (const auto& p : points) xs.push_back(p.intensity), ys.push_back(p.gflops);
  const double ridge = peak_bandwidth_gbps > 0 && peak_gflops > 0 ? peak_gflops / peak_bandwidth_gbps : 0;
  if (ridge > 0) xs.push_back(ridge);
  if (xs.empty()) xs = {0.1, 100};
  Scale x = fit_scale(xs, left, right, true);
  // Give the ridge and the points room on both sides.
  x.lo /= 10, x.hi *= 10;
  if (peak_gflops > 0) ys.push_back(peak_gflops);
  if (peak_bandwidth_gbps > 0) ys.push_back(peak_bandwidth_gbps * x.lo);
  if (ys.empty()) ys = {1, 1000};
  Scale y = fit_scale(ys, bottom, top, true);
  y.hi *= 2;

  Canvas canvas(width, height, "Roofline: arithmetic intensity against achieved GFLOP/s");
  draw_axes(canvas, x, y, compact_number, compact_number, "arithmetic intensity (flop/byte)", "GFLOP/s");

  if (peak_bandwidth_gbps > 0) {
    // Memory roof y = bandwidth * intensity, up to the ridge (or the plot's edge).
    const double x_end = ridge > 0 ? ridge : std::min(x.hi, y.hi / peak_bandwidth_gbps);
    const double x_start = std::max(x.lo, y.lo / peak_bandwidth_gbps);
    canvas.polyline(
        {{x(x_start), y(peak_bandwidth_gbps * x_start)}, {x(x_end), y(peak_bandwidth_gbps * x_end)}},
        "#1565c0", 2);
    canvas.text(x(x_start) + 8, y(peak_bandwidth_gbps * x_start) - 8,
                "measured bandwidth " + format_bandwidth(peak_bandwidth_gbps), "start", 11, "#1565c0");
  }
  if (peak_gflops > 0) {
    const double x_start = ridge > 0 ? ridge : x.lo;
    canvas.polyline({{x(x_start), y(peak_gflops)}, {x(x.hi), y(peak_gflops)}}, "#e65100", 2);
    canvas.text(right - 6, y(peak_gflops) - 6, "fma_peak " + format_flops(peak_gflops), "end", 11, "#e65100");
  }
  if (ridge > 0) canvas.line(x(ridge), y(peak_gflops), x(ridge), bottom, "#999", 1, "3,3");

  for (const auto& p : points)
    canvas.circle(x(p.intensity), y(p.gflops), 5, verdict_colour(p.verdict),
                  fmt::format("{}: {:.3g} flop/byte, {} ({})", p.label, p.intensity, format_flops(p.gflops),
                              to_string(p.verdict)),
                  0.85);
  if (points.empty())
    canvas.text((left + right) / 2, (top + bottom) / 2, "no case with flops to place", "middle", 13, "#777");
  return canvas.str();
}

}  // namespace perfgate::svg
