#include "report/svg_roofline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "report/svg_canvas.h"

namespace perfgate::svg {

std::string roofline_svg(const std::vector<RooflinePoint>& points, const Peaks& peaks) {
  const double width = 680, height = 400, left = 70, right = width - 20, top = 20, bottom = height - 50;
  const double peak_gflops = peaks.gflops;
  // The slanted roofs, lowest first: each runs up to its own ridge point.
  struct Roof {
    double gbps;
    std::string label, colour;
  };
  std::vector<Roof> roofs;
  if (peaks.bandwidth_gbps > 0)
    roofs.push_back({peaks.bandwidth_gbps, "DRAM " + format_bandwidth(peaks.bandwidth_gbps), "#1565c0"});
  if (peaks.cache_bandwidth_gbps > 0)
    roofs.push_back({peaks.cache_bandwidth_gbps, "cache " + format_bandwidth(peaks.cache_bandwidth_gbps), "#2e7d32"});
  std::vector<double> xs, ys;
  for (const auto& p : points) xs.push_back(p.intensity), ys.push_back(p.gflops);
  for (const auto& r : roofs)
    if (peak_gflops > 0) xs.push_back(peak_gflops / r.gbps);
  if (xs.empty()) xs = {0.1, 100};
  Scale x = fit_scale(xs, left, right, true);
  // Give the ridges and the points room on both sides.
  x.lo /= 10, x.hi *= 10;
  if (peak_gflops > 0) ys.push_back(peak_gflops);
  if (peaks.tensor_gflops > 0) ys.push_back(peaks.tensor_gflops);
  for (const auto& r : roofs) ys.push_back(r.gbps * x.lo);
  if (ys.empty()) ys = {1, 1000};
  Scale y = fit_scale(ys, bottom, top, true);
  y.hi *= 2;

  Canvas canvas(width, height, "Roofline: arithmetic intensity against achieved GFLOP/s");
  draw_axes(canvas, x, y, compact_number, compact_number, "arithmetic intensity (flop/byte)", "GFLOP/s");

  double first_ridge = 0;
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const Roof& r = roofs[i];
    // Memory roof y = bandwidth * intensity, up to the ridge (or the plot's edge).
    const double ridge = peak_gflops > 0 ? peak_gflops / r.gbps : 0;
    if (first_ridge == 0 || (ridge > 0 && ridge < first_ridge)) first_ridge = ridge;
    const double x_end = ridge > 0 ? ridge : std::min(x.hi, y.hi / r.gbps);
    const double x_start = std::max(x.lo, y.lo / r.gbps);
    canvas.polyline({{x(x_start), y(r.gbps * x_start)}, {x(x_end), y(r.gbps * x_end)}}, r.colour, 2);
    // Labels on opposite sides of their roofs, so two close roofs stay readable.
    canvas.text(x(x_start) + 8, y(r.gbps * x_start) + (i == 0 ? 16 : -8), r.label, "start", 11, r.colour);
    if (ridge > 0) canvas.line(x(ridge), y(peak_gflops), x(ridge), bottom, "#999", 1, "3,3");
  }
  if (peak_gflops > 0) {
    const double x_start = first_ridge > 0 ? first_ridge : x.lo;
    canvas.polyline({{x(x_start), y(peak_gflops)}, {x(x.hi), y(peak_gflops)}}, "#e65100", 2);
    canvas.text(right - 6, y(peak_gflops) - 6, "fma_peak " + format_flops(peak_gflops), "end", 11, "#e65100");
  }
  if (peaks.tensor_gflops > 0 && peaks.tensor_gflops != peak_gflops) {
    // Matrix-unit kernels (f16 tensor cores) have their own flat roof.
    const double y_tensor = y(peaks.tensor_gflops);
    canvas.polyline({{x(x.lo), y_tensor}, {x(x.hi), y_tensor}}, "#6a1b9a", 1);
    canvas.text(right - 6, y_tensor - 6, "tensor_peak " + format_flops(peaks.tensor_gflops), "end", 11, "#6a1b9a");
  }

  for (const auto& p : points)
    canvas.circle(x(p.intensity), y(p.gflops), 5, verdict_colour(p.verdict),
                  fmt::format("{}: {:.3g} flop/byte, {} ({}{})", p.label, p.intensity, format_flops(p.gflops),
                              to_string(p.verdict), p.in_cache ? ", in cache: under the cache roof" : ""),
                  p.in_cache ? 0.35 : 0.85);
  if (points.empty())
    canvas.text((left + right) / 2, (top + bottom) / 2, "no case with flops to place", "middle", 13, "#777");
  return canvas.str();
}

}  // namespace perfgate::svg
