#include "report/html_plots.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/units.h"
#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"
#include "report/breakdown.h"
#include "report/history_changes.h"
#include "report/svg_distribution.h"
#include "report/svg_line_chart.h"
#include "report/svg_roofline.h"
#include "report/xml_escape.h"

namespace perfgate::html {
namespace {

std::string figure(const std::string& caption, const std::string& svg) {
  return "<figure><figcaption>" + caption + "</figcaption>\n" + svg + "</figure>\n";
}

std::string case_caption(const CaseResult& c) {
  return fmt::format("<span class=\"id\">{}</span> <span class=\"chip v-{}\">{}</span>", xml_escape(c.id),
                     to_string(c.verdict), to_string(c.verdict));
}

const std::vector<double>* latency_samples(const CaseResult& c) {
  const Metric* m = find_metric(c, metric::latency_ns);
  return m && !m->samples.empty() ? &m->samples : nullptr;
}

std::string short_date(const std::string& iso) {
  // "2024-05-01T12:00:00Z" -> "05-01 12:00"
  return iso.size() >= 16 && iso[10] == 'T' ? iso.substr(5, 5) + " " + iso.substr(11, 5) : iso;
}

}  // namespace

std::vector<std::string> history_labels(const std::vector<std::string>& started_at) {
  std::map<std::string, int> per_minute;
  for (const std::string& iso : started_at) ++per_minute[short_date(iso)];
  std::map<std::string, int> seen;
  std::vector<std::string> labels;
  for (const std::string& iso : started_at) {
    std::string label = short_date(iso);
    if (per_minute[label] > 1 && iso.size() >= 19 && iso[10] == 'T')
      label = iso.substr(5, 5) + " " + iso.substr(11, 8);
    if (const int n = ++seen[label]; n > 1) label += " #" + std::to_string(n);
    labels.push_back(label);
  }
  return labels;
}

namespace {

std::string point_tooltip(const HistoryPoint& p, const std::string& value) {
  return fmt::format("{} {} {}: {} ({})", p.started_at, p.commit.substr(0, 8), p.run_id, value,
                     to_string(p.verdict));
}

// A judged history: the runs, a step line through each segment's median, a dot per change point.
std::string judged_history_figure(const CaseResult& c, const CaseHistory& h) {
  auto format = [&](double v) { return format_history_value(h.metric, v); };
  svg::LineSeries runs{c.id, {}}, segments{"segment medians", {}};
  svg::LineChartAxes axes;
  axes.x_title = "run";
  axes.y_title = h.metric == metric::latency_ns ? "median latency" : "median " + h.metric;
  axes.y_format =
      h.metric == metric::latency_ns ? svg::Format(format_duration_ns) : svg::Format(svg::compact_number);
  std::vector<std::string> times;
  for (std::size_t i = 0; i < h.points.size(); ++i) {
    runs.points.push_back({static_cast<double>(i), h.values[i],
                           point_tooltip(h.points[i], format(h.values[i])),
                           std::string(svg::verdict_colour(h.points[i].verdict))});
    times.push_back(h.points[i].started_at);
  }
  axes.x_labels = history_labels(times);
  for (const Segment& s : h.segmentation.segments) {
    const std::string tip = fmt::format("segment of {} runs: median {}", s.end - s.begin, format(s.median));
    segments.points.push_back({static_cast<double>(s.begin) - 0.5, s.median, tip, ""});
    segments.points.push_back({static_cast<double>(s.end) - 0.5, s.median, tip, ""});
  }
  std::vector<svg::LineSeries> series{runs, segments};
  // A regression the gate does not fail (a step across devices within their spread) is grey:
  // red is what needs someone.
  for (const HistoryChange& change : h.changes)
    series.push_back(
        {fmt::format("{} {:+.1f}% {}", change.id, change.step.magnitude_pct, change_kind(change)),
         {{static_cast<double>(change.run_index), change.step.median_after,
           fmt::format("change point {} at run {} ({}..{}): {} -> {}, {:+.1f}%{}", change.id,
                       change.run_index, change.commit_before.substr(0, 10),
                       change.commit_after.substr(0, 10), format(change.step.median_before),
                       format(change.step.median_after), change.step.magnitude_pct,
                       change.not_gated.empty() ? "" : "; not gated: " + change.not_gated),
           !change.regression          ? "#2e7d32"
           : !change.not_gated.empty() ? "#9e9e9e"
                                       : "#c62828"}}});
  std::string bisected;
  for (const HistoryChange& change : h.changes)
    if (change.bisected) bisected += " · " + xml_escape(change.id + " " + bisected_text(*change.bisected));
  return figure(case_caption(c) +
                    fmt::format(" · {} runs · {} change point{}", h.points.size(), h.changes.size(),
                                h.changes.size() == 1 ? "" : "s") +
                    bisected,
                svg::line_chart_svg(series, axes, "History of " + c.id, 260));
}

}  // namespace

std::string roofline_section(const RunResult& run) {
  std::vector<svg::RooflinePoint> points;
  std::vector<std::string> left_out;
  Peaks peaks;
  for (const auto& c : run.cases) {
    peaks.bandwidth_gbps = std::max(peaks.bandwidth_gbps, c.peaks.bandwidth_gbps);
    peaks.cache_bandwidth_gbps = std::max(peaks.cache_bandwidth_gbps, c.peaks.cache_bandwidth_gbps);
    peaks.gflops = std::max(peaks.gflops, c.peaks.gflops);
    peaks.tensor_gflops = std::max(peaks.tensor_gflops, c.peaks.tensor_gflops);
    if (!latency_samples(c)) continue;
    const double gflops = median_of(c, metric::gflops);
    if (gflops > 0 && c.arithmetic_intensity > 0)
      points.push_back({c.id, c.arithmetic_intensity, gflops, c.verdict, c.fits_in_cache});
    else
      left_out.push_back(c.kernel);
  }
  // Results written before the ceilings were stored per case: the run's fma_peak case.
  if (peaks.gflops == 0) peaks.gflops = peak_gflops_of(run);
  const double peak_gflops = peaks.gflops;
  if (points.empty() && peaks.bandwidth_gbps == 0 && peak_gflops == 0) return "";
  std::string out = "<h2 id=\"roofline\">Roofline</h2>\n";
  out += figure("Achieved GFLOP/s against arithmetic intensity, under the measured ceilings",
                svg::roofline_svg(points, peaks));
  if (!left_out.empty()) {
    std::sort(left_out.begin(), left_out.end());
    left_out.erase(std::unique(left_out.begin(), left_out.end()), left_out.end());
    out += fmt::format("<p class=\"meta\">Not on the plot (no flops, so no arithmetic intensity): {}.</p>\n",
                       xml_escape(fmt::format("{}", fmt::join(left_out, ", "))));
  }
  if (peak_gflops == 0)
    out += "<p class=\"meta\">No fma_peak case in this run: the compute ceiling is not drawn.</p>\n";
  if (peaks.cache_bandwidth_gbps > 0)
    out +=
        "<p class=\"meta\">Faint points: working set inside the last-level cache, judged against the "
        "cache roof; full points against DRAM's.</p>\n";
  return out;
}

std::string distribution_section(const RunResult& run, const RunResult* baseline,
                                 const std::string& baseline_from) {
  std::map<std::string, const CaseResult*> before;
  if (baseline)
    for (const auto& c : baseline->cases) before[c.id] = &c;
  std::string body;
  for (const CaseResult* c : worst_first(run)) {
    const auto* samples = latency_samples(*c);
    if (!samples) continue;
    std::vector<svg::SampleSet> sets;
    if (auto it = before.find(c->id); it != before.end())
      if (const auto* base = latency_samples(*it->second)) sets.push_back({"baseline", *base, "#546e7a"});
    sets.push_back({"current", *samples, std::string(svg::verdict_colour(c->verdict))});
    body += figure(case_caption(*c), svg::distribution_svg(sets, format_duration_ns, "latency per dispatch",
                                                           "Latency samples of " + c->id));
  }
  if (body.empty()) return "";
  std::string intro = !baseline ? "No baseline results given (<code>--baseline</code>); "
                      : baseline_from.empty()
                          ? "Baseline samples from run <code>" + xml_escape(baseline->run_id) + "</code>; "
                          : "Baseline samples from " + baseline_from + "; ";
  intro += "boxes span the 25th to 75th percentile, whiskers the 5th to 95th, the thick line is the median.";
  return "<h2 id=\"distributions\">Distributions</h2>\n<p class=\"meta\">" + intro + "</p>\n" + body;
}

std::vector<Sweep> find_sweeps(const RunResult& run) {
  std::map<std::pair<std::string, std::string>, std::vector<const CaseResult*>> groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& c : run.cases) {
    if (!latency_samples(c) || c.params.values().empty()) continue;
    auto key = std::make_pair(c.kernel, c.backend);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&c);
  }
  std::vector<Sweep> sweeps;
  for (const auto& key : order) {
    const auto& cases = groups[key];
    for (const auto& [axis, unused] : cases.front()->params.values()) {
      std::map<std::string, SweepLine> lines;  // by the other axes
      std::set<std::int64_t> values;
      for (const CaseResult* c : cases) {
        if (!c->params.has(axis)) continue;
        std::string others;
        for (const auto& [name, value] : c->params.values())
          if (name != axis) others += fmt::format("{}{}={}", others.empty() ? "" : ",", name, value);
        SweepLine& line = lines[others];
        line.others = others;
        line.points.emplace_back(c->params[axis], c);
        values.insert(c->params[axis]);
      }
      if (values.size() < 2) continue;
      Sweep sweep{key.first, key.second, axis, {}};
      for (auto& [others, line] : lines) {
        std::sort(line.points.begin(), line.points.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        if (line.points.size() >= 2) sweep.lines.push_back(std::move(line));
      }
      if (!sweep.lines.empty()) sweeps.push_back(std::move(sweep));
    }
  }
  return sweeps;
}

std::string sweep_section(const RunResult& run) {
  std::string body;
  for (const Sweep& sweep : find_sweeps(run)) {
    std::vector<svg::LineSeries> series;
    std::vector<double> xs, ys;
    for (const SweepLine& line : sweep.lines) {
      svg::LineSeries s{line.others.empty() ? sweep.kernel : line.others, {}};
      for (const auto& [value, c] : line.points) {
        const double ns = median_of(*c, metric::latency_ns);
        // Dots take the series' colour unless the case needs attention.
        const bool notable = severity(c->verdict) < severity(Verdict::no_baseline);
        s.points.push_back({static_cast<double>(value), ns,
                            fmt::format("{}: {} ({})", c->id, format_duration_ns(ns), to_string(c->verdict)),
                            notable ? std::string(svg::verdict_colour(c->verdict)) : ""});
        xs.push_back(static_cast<double>(value)), ys.push_back(ns);
      }
      series.push_back(std::move(s));
    }
    svg::LineChartAxes axes;
    axes.x_title = sweep.axis;
    axes.y_title = "median latency";
    axes.y_format = format_duration_ns;
    axes.x_log = svg::wants_log(xs, 8);
    axes.y_log = svg::wants_log(ys, 20);
    const std::string title = fmt::format("{}/{}: latency by {}", sweep.kernel, sweep.backend, sweep.axis);
    body += figure("<span class=\"id\">" + xml_escape(title) + "</span>",
                   svg::line_chart_svg(series, axes, title));
  }
  return body.empty() ? "" : "<h2 id=\"sweeps\">Sweeps</h2>\n" + body;
}

std::string history_section(const RunResult& run,
                            const std::map<std::string, std::vector<HistoryPoint>>& history,
                            const std::vector<CaseHistory>& changes) {
  std::string body;
  for (const CaseResult* c : worst_first(run)) {
    const auto judged = std::find_if(changes.begin(), changes.end(), [&](const CaseHistory& h) {
      return h.case_id == c->id && h.machine_id == run.fingerprint.machine_id;
    });
    if (judged != changes.end()) {
      body += judged_history_figure(*c, *judged);
      continue;
    }
    auto it = history.find(c->id);
    if (it == history.end() || it->second.empty()) continue;
    svg::LineSeries series{c->id, {}};
    svg::LineChartAxes axes;
    axes.x_title = "run";
    axes.y_title = "median latency";
    axes.y_format = format_duration_ns;
    std::vector<std::string> times;
    for (const HistoryPoint& p : it->second) {
      auto latency = p.medians.find(metric::latency_ns);
      if (latency == p.medians.end()) continue;
      const double x = static_cast<double>(series.points.size());
      series.points.push_back({x, latency->second, point_tooltip(p, format_duration_ns(latency->second)),
                               std::string(svg::verdict_colour(p.verdict))});
      times.push_back(p.started_at);
    }
    axes.x_labels = history_labels(times);
    if (series.points.empty()) continue;
    body += figure(case_caption(*c) + fmt::format(" · {} runs", series.points.size()),
                   svg::line_chart_svg({series}, axes, "History of " + c->id, 240));
  }
  return body.empty() ? "" : "<h2 id=\"history\">History</h2>\n" + body;
}

}  // namespace perfgate::html
