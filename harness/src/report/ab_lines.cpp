#include "report/ab_lines.h"

#include <fmt/format.h>

#include <cmath>

#include "core/units.h"

namespace perfgate {

std::string format_ab_ratio(const AbComparison& ab) {
  const auto bound = [](double v) {
    return std::isfinite(v) ? fmt::format("{:.3f}", v) : std::string("inf");
  };
  return fmt::format("{:.3f} [{}, {}]", ab.median_ratio, bound(ab.interval_low), bound(ab.interval_high));
}

std::string render_ab_sides(const CaseResult& result) {
  if (!result.ab) return "";
  const AbComparison& ab = *result.ab;
  const auto row = [](const char* what, const std::string& base, const std::string& head) {
    return fmt::format("    {:<10} {:<40} {}\n", what, base, head);
  };
  const auto short_hash = [](const std::string& h) { return h.substr(0, 12); };
  std::string out =
      fmt::format("  A/B {} (base and head measured in {} interleaved rounds)\n", result.id, ab.rounds);
  out += row("", "base", "head");
  out += row("latency", format_duration_ns(ab.base.latency_ns), format_duration_ns(ab.head.latency_ns));
  out += row("perfgate", ab.base.perfgate_version, ab.head.perfgate_version);
  out += row("source", short_hash(ab.base.source_hash), short_hash(ab.head.source_hash));
  out += row("binary", ab.base.binary, ab.head.binary);
  return out;
}

}  // namespace perfgate
