#include "report/svg_distribution.h"

#include <algorithm>
#include <cmath>

#include "stats/summary.h"

namespace perfgate::svg {
namespace {

// Enough dots to show the shape; the box always summarises every sample.
constexpr std::size_t kMaxDots = 300;

}  // namespace

std::string distribution_svg(const std::vector<SampleSet>& sets, const Format& format,
                             std::string_view x_title, std::string_view label) {
  const double row = 46, left = 80, top = 10, width = 580, right = width - 20;
  const double bottom = top + row * static_cast<double>(std::max<std::size_t>(1, sets.size()));
  const double height = bottom + 44;
  std::vector<double> all;
  for (const auto& s : sets) all.insert(all.end(), s.samples.begin(), s.samples.end());
  const Scale x = fit_scale(all, left, right, wants_log(all));

  Canvas canvas(width, height, label);
  // The frame and x ticks; the y axis is the rows, labelled by name instead of ticks.
  canvas.rect(left, top, right - left, bottom - top, "#fcfcfc", "#999");
  for (double t : x.ticks()) {
    canvas.line(x(t), top, x(t), bottom, "#e3e3e3");
    canvas.text(x(t), bottom + 14, format(t), "middle", 10, "#555");
  }
  canvas.text((left + right) / 2, bottom + 32, x_title, "middle", 11);

  for (std::size_t r = 0; r < sets.size(); ++r) {
    const SampleSet& s = sets[r];
    const double mid = top + row * (static_cast<double>(r) + 0.5);
    canvas.text(left - 8, mid + 4, s.label, "end", 11, s.colour);
    if (s.samples.empty()) {
      canvas.text(left + 8, mid + 4, "no samples", "start", 11, "#777");
      continue;
    }
    const std::size_t step = (s.samples.size() + kMaxDots - 1) / kMaxDots;
    for (std::size_t i = 0; i < s.samples.size(); i += step) {
      // Deterministic jitter (golden-ratio sequence) so identical runs render identically.
      const double jitter = std::fmod(static_cast<double>(i) * 0.6180339887, 1.0) - 0.5;
      canvas.circle(x(s.samples[i]), mid + jitter * row * 0.55, 2, s.colour, "", 0.35);
    }
    const double p5 = percentile(s.samples, 5), p25 = percentile(s.samples, 25),
                 p50 = percentile(s.samples, 50), p75 = percentile(s.samples, 75),
                 p95 = percentile(s.samples, 95);
    const double half = row * 0.3;
    canvas.line(x(p5), mid, x(p25), mid, s.colour, 1.5);
    canvas.line(x(p75), mid, x(p95), mid, s.colour, 1.5);
    canvas.line(x(p5), mid - half / 2, x(p5), mid + half / 2, s.colour, 1.5);
    canvas.line(x(p95), mid - half / 2, x(p95), mid + half / 2, s.colour, 1.5);
    canvas.rect(x(p25), mid - half, x(p75) - x(p25), 2 * half, s.colour, s.colour, 0.15);
    canvas.line(x(p50), mid - half, x(p50), mid + half, s.colour, 3);
    canvas.text(x(p50), mid - half - 3, format(p50), "middle", 9, s.colour);
  }
  return canvas.str();
}

}  // namespace perfgate::svg
