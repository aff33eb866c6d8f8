#include "report/svg_canvas.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/xml_escape.h"

namespace perfgate::svg {
namespace {

std::string px(double value) { return fmt::format("{:.1f}", value); }

}  // namespace

double Scale::operator()(double value) const {
  double t;
  if (log) {
    const double v = std::max(value, lo * 1e-3);
    t = (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
  } else {
    t = (value - lo) / (hi - lo);
  }
  return from + t * (to - from);
}

std::vector<double> Scale::ticks() const {
  std::vector<double> out;
  const double eps = 1e-9;
  if (log) {
    const int first = static_cast<int>(std::floor(std::log10(lo) - eps));
    const int last = static_cast<int>(std::ceil(std::log10(hi) + eps));
    const bool few = last - first <= 3;
    for (int e = first; e <= last; ++e)
      for (double m : few ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
        const double v = m * std::pow(10.0, e);
        if (v >= lo * (1 - eps) && v <= hi * (1 + eps)) out.push_back(v);
      }
    return out;
  }
  const double span = hi - lo;
  if (!(span > 0)) return {lo};
  const double raw = span / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  for (double v = std::ceil(lo / step - eps) * step; v <= hi + step * eps; v += step)
    out.push_back(std::abs(v) < step * eps ? 0 : v);
  return out;
}

bool wants_log(std::span<const double> values, double factor) {
  double lo = 0, hi = 0;
  for (double v : values) {
    if (!(v > 0)) return false;
    lo = lo == 0 ? v : std::min(lo, v);
    hi = std::max(hi, v);
  }
  return lo > 0 && hi / lo > factor;
}

Scale fit_scale(std::span<const double> values, double from, double to, bool log) {
  Scale s{0, 1, from, to, log};
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (std::isfinite(v) && (!log || v > 0)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (lo > hi) {
    if (log) s.lo = 1, s.hi = 10;
    return s;
  }
  if (log) {
    // Whole powers of ten around the values, and at least one decade.
    s.lo = std::pow(10.0, std::floor(std::log10(lo)));
    s.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (s.hi <= s.lo) s.hi = s.lo * 10;
    return s;
  }
  if (lo == hi) {
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    s.lo = lo - pad, s.hi = hi + pad;
  } else {
    const double pad = (hi - lo) * 0.08;
    s.lo = lo - pad, s.hi = hi + pad;
  }
  return s;
}

std::string compact_number(double value) {
  const double a = std::abs(value);
  if (a >= 1e9) return fmt::format("{:g}G", value / 1e9);
  if (a >= 1e6) return fmt::format("{:g}M", value / 1e6);
  if (a >= 1e4) return fmt::format("{:g}k", value / 1e3);
  return fmt::format("{:g}", value);
}

std::string_view verdict_colour(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "#2e7d32";
    case Verdict::improved: return "#00838f";
    case Verdict::regressed: return "#c62828";
    case Verdict::error: return "#6a1b9a";
    case Verdict::inconclusive: return "#ef6c00";
    case Verdict::no_baseline: return "#546e7a";
    case Verdict::skipped: return "#9e9e9e";
  }
  return "#333";
}

std::string_view series_colour(std::size_t index) {
  static constexpr std::string_view palette[] = {"#1565c0", "#e65100", "#2e7d32", "#6a1b9a",
                                                 "#c62828", "#00838f", "#5d4037", "#ad1457"};
  return palette[index % std::size(palette)];
}

Canvas::Canvas(double width, double height, std::string_view label)
    : width_(width), height_(height), label_(xml_escape(label)) {}

void Canvas::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
                  std::string_view dash) {
  body_ += fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", px(x1), px(y1),
      px(x2), px(y2), stroke, width, dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", dash));
}

void Canvas::rect(double x, double y, double w, double h, std::string_view fill, std::string_view stroke,
                  double opacity) {
  body_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\"{}/>\n",
                       px(x), px(y), px(std::max(0.0, w)), px(std::max(0.0, h)), fill, stroke,
                       opacity < 1 ? fmt::format(" fill-opacity=\"{}\"", opacity) : "");
}

void Canvas::circle(double cx, double cy, double r, std::string_view fill, std::string_view tooltip,
                    double opacity) {
  const std::string attrs = fmt::format("cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"{}", px(cx), px(cy), r, fill,
                                        opacity < 1 ? fmt::format(" fill-opacity=\"{}\"", opacity) : "");
  if (tooltip.empty())
    body_ += "<circle " + attrs + "/>\n";
  else
    body_ += "<circle " + attrs + "><title>" + xml_escape(tooltip) + "</title></circle>\n";
}

void Canvas::polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke,
                      double width, std::string_view dash) {
  std::string list;
  for (const auto& [x, y] : points) list += (list.empty() ? "" : " ") + px(x) + "," + px(y);
  body_ += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", list,
                       stroke, width, dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", dash));
}

void Canvas::text(double x, double y, std::string_view content, std::string_view anchor, double size,
                  std::string_view fill, double rotate) {
  body_ +=
      fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\" font-size=\"{}\" fill=\"{}\"{}>{}</text>\n",
                  px(x), px(y), anchor, size, fill,
                  rotate != 0 ? fmt::format(" transform=\"rotate({} {} {})\"", rotate, px(x), px(y)) : "",
                  xml_escape(content));
}

std::string Canvas::str() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\" "
      "aria-label=\"{}\" font-family=\"sans-serif\">\n<title>{}</title>\n{}</svg>\n",
      width_, height_, width_, height_, label_, label_, body_);
}

void draw_axes(Canvas& canvas, const Scale& x, const Scale& y, const Format& x_format, const Format& y_format,
               std::string_view x_title, std::string_view y_title) {
  const double left = std::min(x.from, x.to), right = std::max(x.from, x.to);
  const double top = std::min(y.from, y.to), bottom = std::max(y.from, y.to);
  canvas.rect(left, top, right - left, bottom - top, "#fcfcfc", "#999");
  for (double t : x.ticks()) {
    const double px_x = x(t);
    canvas.line(px_x, top, px_x, bottom, "#e3e3e3");
    canvas.text(px_x, bottom + 14, x_format(t), "middle", 10, "#555");
  }
  for (double t : y.ticks()) {
    const double px_y = y(t);
    canvas.line(left, px_y, right, px_y, "#e3e3e3");
    canvas.text(left - 5, px_y + 3.5, t == 0 ? "0" : y_format(t), "end", 10, "#555");
  }
  canvas.text((left + right) / 2, bottom + 32, x_title, "middle", 11);
  canvas.text(14, (top + bottom) / 2, y_title, "middle", 11, "#333", -90);
}

}  // namespace perfgate::svg
