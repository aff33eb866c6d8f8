#include "report/history_table.h"

#include <fmt/format.h>
#include <fmt/printf.h>

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

// Display width of UTF-8 text (µ is two bytes, one column).
std::size_t columns(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

std::string right(const std::string& text, std::size_t width) {
  return std::string(width > columns(text) ? width - columns(text) : 0, ' ') + text;
}

}  // namespace

std::string render_history_table(const std::vector<HistoryPoint>& points) {
  std::string out;
  for (const auto& [case_id, entries] : history_by_case(points)) {
    out += fmt::sprintf("%s\n  %-20s  %-24s  %-10s  %-12s  %10s  %8s  %11s\n", case_id.c_str(), "started",
                        "machine", "commit", "verdict", "latency", "change", "bandwidth");
    double previous = 0;
    for (const HistoryPoint& p : entries) {
      const auto latency = p.medians.find(metric::latency_ns);
      const auto bandwidth = p.medians.find(metric::bandwidth_gbps);
      const double ns = latency == p.medians.end() ? 0 : latency->second;
      const std::string change =
          previous > 0 && ns > 0 ? fmt::format("{:+.1f}%", 100 * (ns / previous - 1)) : "";
      out += fmt::sprintf(
          "  %-20s  %-24s  %-10s  %-12s  %s  %8s  %s\n", p.started_at.c_str(), p.machine_id.c_str(),
          p.commit.substr(0, 10).c_str(), std::string(to_string(p.verdict)).c_str(),
          right(ns > 0 ? format_duration_ns(ns) : "-", 10).c_str(), change.c_str(),
          right(bandwidth == p.medians.end() ? "-" : format_bandwidth(bandwidth->second), 11).c_str());
      if (ns > 0) previous = ns;
    }
  }
  return out;
}

std::string render_history_json_lines(const std::vector<HistoryPoint>& points) {
  std::string out;
  for (const HistoryPoint& p : points)
    out += nlohmann::json{{"machine_id", p.machine_id},
                          {"run_id", p.run_id},
                          {"started_at", p.started_at},
                          {"commit", p.commit},
                          {"branch", p.branch},
                          {"case", p.case_id},
                          {"verdict", to_string(p.verdict)},
                          {"medians", p.medians}}
               .dump() +
           "\n";
  return out;
}

}  // namespace perfgate
