#pragma once
// The few SVG pieces the HTML report's plots are drawn with: a canvas that writes escaped
// elements, linear and log scales with readable ticks, and axes. No script, no external fonts:
// the output is plain inline SVG.
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/result.h"

namespace perfgate::svg {

// Maps a data domain [lo, hi] onto pixels [from, to] (to < from for a y axis).
struct Scale {
  double lo = 0, hi = 1;
  double from = 0, to = 1;
  bool log = false;
  double operator()(double value) const;
  // Round values inside the domain: decades (with 2 and 5 when few decades) on a log scale,
  // 1-2-5 steps on a linear one.
  std::vector<double> ticks() const;
};

// A domain covering every value with some room: on a log scale positive values only, widened
// to whole factors; on a linear scale starting at zero when the values are all positive.
Scale fit_scale(std::span<const double> values, double from, double to, bool log);
// A log scale reads better once the values span more than this factor.
bool wants_log(std::span<const double> values, double factor = 20);

using Format = std::function<std::string(double)>;
std::string compact_number(double value);  // "0.25", "12", "1.5k", "3M"

// Fixed colours per verdict, shared with the page's CSS.
std::string_view verdict_colour(Verdict verdict);
// The n-th of a small palette for series.
std::string_view series_colour(std::size_t index);

class Canvas {
 public:
  Canvas(double width, double height, std::string_view label);
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width = 1,
            std::string_view dash = "");
  void rect(double x, double y, double w, double h, std::string_view fill, std::string_view stroke = "none",
            double opacity = 1);
  // A tooltip becomes the element's <title>, which browsers show on hover without script.
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view tooltip = "",
              double opacity = 1);
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke,
                double width = 1.5, std::string_view dash = "");
  void text(double x, double y, std::string_view content, std::string_view anchor = "start", double size = 11,
            std::string_view fill = "#333", double rotate = 0);
  std::string str() const;
  double width() const { return width_; }
  double height() const { return height_; }

 private:
  double width_, height_;
  std::string label_;
  std::string body_;
};

// The plot area's frame, grid lines at the ticks, tick labels and axis titles.
void draw_axes(Canvas& canvas, const Scale& x, const Scale& y, const Format& x_format, const Format& y_format,
               std::string_view x_title, std::string_view y_title);

}  // namespace perfgate::svg
