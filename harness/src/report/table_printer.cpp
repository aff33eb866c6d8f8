#include "report/table_printer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/resolution.h"
#include "core/terminal_text.h"
#include "core/units.h"
#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"
#include "report/ab_lines.h"
#include "stats/geometric_mean.h"

namespace perfgate {
namespace {

const char* verdict_color(Verdict v) {
  switch (v) {
    case Verdict::pass: return "\033[32m";
    case Verdict::improved: return "\033[36m";
    case Verdict::regressed:
    case Verdict::error: return "\033[1;31m";
    case Verdict::inconclusive: return "\033[33m";
    case Verdict::no_baseline:
    case Verdict::skipped: return "\033[2m";
  }
  return "";
}

// Display width of UTF-8 text (µ is two bytes, one column).
std::size_t width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

const Metric* metric_of(const CaseResult& r, const char* name) {
  auto it = r.metrics.find(name);
  return it == r.metrics.end() ? nullptr : &it->second;
}

// The verdict and the change of the metric that judged the case: latency_ns, or
// relative_latency where the measurement was calibrated (every case on CPUs and llvmpipe).
std::string verdict_text(const CaseResult& r) {
  std::string text(to_string(r.verdict));
  const Judgement* j = main_judgement(r);
  if (j && (r.verdict == Verdict::regressed || r.verdict == Verdict::improved || r.verdict == Verdict::pass ||
            r.verdict == Verdict::inconclusive)) {
    char delta[32];
    // change_pct is positive when worse; show the latency change with its sign.
    std::snprintf(delta, sizeof delta, " %+.1f%%", j->change_pct);
    text += delta;
  }
  return text;
}

// Which ceiling `% peak` is against, once for the run (every case carries the device's).
std::string ceilings_line(const RunResult& run) {
  for (const auto& r : run.cases) {
    const Peaks& p = r.peaks;
    if (p.bandwidth_gbps == 0 && p.cache_bandwidth_gbps == 0) continue;
    std::string text = "% peak against";
    if (p.cache_bandwidth_gbps > 0)
      text += " the cache's " + format_bandwidth(p.cache_bandwidth_gbps) + " for working sets in its " +
              fixed_digits(p.cache_bytes / (1 << 20), 3) + " MiB, else";
    text += " DRAM's " + format_bandwidth(p.bandwidth_gbps);
    if (p.gflops > 0) text += "; compute ceiling " + format_flops(p.gflops);
    return text + "\n";
  }
  return "";
}

}  // namespace

std::string render_table(const RunResult& run, const TableStyle& style) {
  const std::vector<std::string> header{"case",    "latency", "±",       "bandwidth", "% peak",
                                        "GFLOP/s", "bound",   "catches", "verdict"};
  std::vector<std::vector<std::string>> rows;
  std::vector<Verdict> verdicts;
  for (const auto& r : run.cases) {
    const std::string catches = case_resolution(r);
    std::vector<std::string> row{r.id,
                                 "-",
                                 "",
                                 "-",
                                 "-",
                                 "-",
                                 r.bound.empty() ? "-" : r.bound,
                                 catches.empty() ? "-" : ">= " + catches,
                                 verdict_text(r)};
    if (const Metric* m = metric_of(r, metric::latency_ns)) {
      row[1] = format_duration_ns(m->summary.median);
      row[2] = m->summary.median > 0 ? fixed_digits(100.0 * m->summary.mad / m->summary.median, 2) + "%" : "";
    }
    if (const Metric* m = find_metric(r, metric::bandwidth_gbps))
      row[3] = format_bandwidth(m->summary.median);
    if (const Metric* m = find_metric(r, metric::pct_peak_bw))
      row[4] = fixed_digits(m->summary.median, 3) + "%";
    if (const Metric* m = find_metric(r, metric::gflops)) row[5] = fixed_digits(m->summary.median, 4);
    if (r.fits_in_cache && find_metric(r, metric::latency_ns)) row[0] += " (in cache)";
    for (std::string& cell : row) cell = terminal_text(cell);  // a results file's text shown as text
    rows.push_back(std::move(row));
    verdicts.push_back(r.verdict);
  }
  std::vector<std::size_t> widths(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    widths[c] = width(header[c]);
    for (const auto& row : rows) widths[c] = std::max(widths[c], width(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells, const char* color) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - width(cells[c]), ' ');
      const bool left = c == 0 || c >= 6;
      std::string cell = left ? cells[c] + pad : pad + cells[c];
      if (c == 8 && color && style.color) cell = std::string(color) + cell + "\033[0m";
      out += cell;
      if (c + 1 < cells.size()) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header, nullptr);
  std::size_t total = 0;
  for (std::size_t w : widths) total += w + 2;
  out += std::string(total - 2, '-') + "\n";
  for (std::size_t i = 0; i < rows.size(); ++i) out += line(rows[i], verdict_color(verdicts[i]));

  std::string summary =
      "\n" + std::to_string(run.cases.size()) + " cases on " + run.fingerprint.machine_id + ":";
  for (const auto& [verdict, n] : summarize_run(run).present_worst_first())
    summary += " " + std::to_string(n) + " " + std::string(to_string(verdict)) + ",";
  summary.back() = '\n';
  if (const auto geomean = run_geometric_mean(run)) summary += geometric_mean_text(*geomean) + "\n";
  if (const std::string resolution = run_resolution(run); !resolution.empty()) summary += resolution + "\n";
  return out + terminal_text(summary) + ceilings_line(run);  // the summary names the machine
}

std::string render_details(const RunResult& run, const TableStyle& style) {
  std::vector<const CaseResult*> notable;
  for (const auto& r : run.cases)
    if (r.verdict != Verdict::pass && r.verdict != Verdict::no_baseline && !r.message.empty())
      notable.push_back(&r);
  std::stable_sort(notable.begin(), notable.end(),
                   [](auto* a, auto* b) { return severity(a->verdict) < severity(b->verdict); });
  std::string out;
  for (const CaseResult* r : notable) {
    std::string tag(to_string(r->verdict));
    if (style.color) tag = std::string(verdict_color(r->verdict)) + tag + "\033[0m";
    out += "  " + tag + "  " + terminal_text(r->id + ": " + r->message) + "\n";
  }
  for (const auto& r : run.cases) out += render_ab_sides(r);
  return out;
}

}  // namespace perfgate
