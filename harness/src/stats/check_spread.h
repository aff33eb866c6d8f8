#pragma once
// How busy the machine was during one calibrated check, from the check's own samples: a
// calibrated round times a batch of the reference workload and then a batch of the case
// (measure/calibration.h), so on a quiet machine both repeat closely from round to round and on
// a busy one both scatter. The spread of each series, robust to a few odd rounds:
//
//   spread    1.4826 x the median absolute deviation / the median, % (a Gaussian's sigma)
//   case      the case's own times (latency_ns) this check
//   reference the reference's times (reference_latency_ns) this check
//   relative  their ratio, the relative_latency being judged
//   pct()     the largest of the three: the machine's noise as this check saw it
//
// A raw-timed check (a case measured alone, with no reference) has only its own times: its
// spread is theirs (check_spread_alone), and `raw` says so.
//
// A steady load shows in none of them: beside a busy loop every round waits alike, so the rounds
// agree while the case and its reference are slowed by different amounts. The scheduler says it
// instead: the share of the check's time its threads waited for a core (core/cpu_wait.h).
#include <span>

namespace perfgate {

inline constexpr double kLoadedSpread = 2;

struct CheckSpread {
  double case_pct = 0;
  double reference_pct = 0;
  double relative_pct = 0;
  // pct() of the baseline's own runs (the median over its runs): what the rounds of a check
  // spread on a machine as quiet as the baseline's, which no load explains. 0 where unknown.
  double baseline_pct = 0;
  int rounds = 0;  // samples of the shortest series: 0 when nothing was measured
  bool raw = false;           // the case timed alone: case_pct is the whole spread
  double cpu_wait_share = 0;  // of the check's time, its threads summed (1.0: one thread all along)
  double baseline_wait_share = 0;  // the same of its baseline's runs: what the case waits anyway
  double pct() const;
  // The spread that says the machine was loaded: pct() where it is more than kLoadedSpread x
  // baseline_pct (or no baseline spread is known), else 0. A spread estimated from 20-200 rounds
  // varies by about 20% by chance, so a check no noisier than twice its baseline's runs shows no
  // load; past that the whole spread counts, as the busy studies measured it. On the 2-core
  // CI-class machine, quiet, copy n=2^25's rounds spread 4-9% in every check while its median
  // moved at most 2.7% in 20 A/A checks: a load_factor of that spread made its allowance 9-14%
  // and a 10% slowdown passed 7 of 20 times (docs/performance.md).
  double load_pct() const;
  // How far the waiting beyond the baseline's could have stretched the check's time, in %:
  // (W - Wb) / (1 - W) of a wait share W over the baseline's Wb, infinite from W = 1 on (a case
  // and its reference are timed in turn, so either may have taken all of the waiting).
  double wait_stretch_pct() const;
};

// 1.4826 x the median absolute deviation / the median, in %; 0 with fewer than 2 samples or a
// median that is not positive.
double robust_spread_pct(std::span<const double> samples);

CheckSpread check_spread(std::span<const double> case_ns, std::span<const double> reference_ns,
                         std::span<const double> relative);
// The spread of a case timed alone (raw-timed, no reference): its own times' spread.
CheckSpread check_spread_alone(std::span<const double> case_ns);

}  // namespace perfgate
