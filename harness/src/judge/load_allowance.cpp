#include "judge/load_allowance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace perfgate {
namespace {

std::string spread_text(const CheckSpread& s) {
  std::string text =
      s.raw ? fmt::format("this check's spread {:.2g}% (its own times, timed alone)", s.pct())
            : fmt::format("this check's spread {:.2g}% (case {:.2g}%, reference {:.2g}%, ratio {:.2g}%)",
                          s.pct(), s.case_pct, s.reference_pct, s.relative_pct);
  if (s.baseline_pct > 0)
    text += fmt::format(", {} {:g} x its baseline's {:.2g}%", s.load_pct() > 0 ? "over" : "within", kLoadedSpread,
                        s.baseline_pct);
  return text;
}

std::string waiting_text(const CheckSpread& s) {
  std::string text = fmt::format("this check's threads waited for a core {:.0f}% of its time", 100 * s.cpu_wait_share);
  if (s.baseline_wait_share > 0) text += fmt::format(" (its baseline's runs {:.0f}%)", 100 * s.baseline_wait_share);
  const double stretch = s.wait_stretch_pct();
  return text + (std::isinf(stretch) ? std::string(", which can stretch it without bound")
                                     : fmt::format(", which can stretch it by {:.0f}%", stretch));
}

}  // namespace

Allowance follow_load(Allowance allowance, const CheckSpread& spread, const MetricThreshold& threshold) {
  if (!threshold.load_factor || *threshold.load_factor <= 0 || spread.rounds == 0) return allowance;
  const double cap = threshold.load_max_pct.value_or(std::numeric_limits<double>::infinity());
  const double by_spread = *threshold.load_factor * spread.load_pct();
  const double by_waiting = spread.wait_stretch_pct();
  const bool waiting = by_waiting > by_spread;
  const double wanted = std::max(by_spread, by_waiting);
  const double load_pct = std::min(wanted, cap);
  allowance.load_wanted_pct = wanted;
  if (waiting) allowance.load_wanted_by = "waiting for cores";
  if (load_pct <= allowance.pct) {
    allowance.why += "; " + spread_text(spread);
    return allowance;
  }
  std::string why =
      waiting ? waiting_text(spread) : fmt::format("{:g} x {}", *threshold.load_factor, spread_text(spread));
  if (wanted > cap) why += fmt::format(", at most load_max_pct {:g}%", cap);
  allowance.why = why + "; " + allowance.why;
  allowance.pct = load_pct;
  allowance.source = "load";
  return allowance;
}

}  // namespace perfgate
