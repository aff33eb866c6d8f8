#pragma once
// Whether device peaks were measured in a busy moment of a shared machine. Such peaks are cached
// as provisional, for minutes (measure/peaks.h), not for good: a ceiling cached for good stands
// for every later run, and on the 2-vCPU CI machine DRAM's ceiling cached under a load of 15
// (1.8 GB/s, 25 quiet) put copy n=65536 at 3000% of its ceiling until the file was deleted.
#include <span>
#include <string>

namespace perfgate {

// A ceiling's samples in time order, split into halves, are two repetitions of its measurement:
// a quiet machine repeats its best (the 95th percentile, the figure a ceiling is) closely; one
// whose load came or went while it measured does not.
struct Repetitions {
  double first = 0;   // the first half's 95th percentile; 0 when there are too few samples
  double second = 0;  // the second half's
};

// Fewer than kMinRepetitionSamples samples per half tell nothing: no disagreement is claimed.
inline constexpr int kMinRepetitionSamples = 2;
Repetitions repetitions_of(std::span<const double> samples);

// Two repetitions further apart than this share of the higher one disagree.
inline constexpr double kRepetitionsDisagreePct = 15;
bool disagree(const Repetitions& r);

// One measurement's evidence: a ceiling's two repetitions (none for the sweep) and the share of
// its time that its threads waited for a core.
struct MeasurementEvidence {
  Repetitions repetitions;
  double cpu_wait_share = 0;
};

// What a peaks measurement shows of the machine's state while it ran.
struct PeaksEvidence {
  bool sweep_disturbed = false;  // CacheEstimate::disturbed
  MeasurementEvidence sweep;     // the copy sweep (measure/cache_sweep.h), on the CPU
  MeasurementEvidence dram;      // DRAM copy's, in GB/s
  MeasurementEvidence fma;       // fma_peak's, in GFLOP/s
};

// Why peaks measured with this evidence are not to be cached, one phrase naming what showed a
// busy moment ("fma_peak waited for a core 40% of its time", "DRAM copy's two repetitions
// disagree: 25 and 6 GB/s", "the cache sweep was disturbed"), or empty.
std::string busy_peaks_reason(const PeaksEvidence& evidence);

// Peaks measured in a busy moment are cached as provisional, and measured again by the first run
// this long after: not at once, since a busy moment lasts (ctest's perf tests, one process each,
// would otherwise each spend ~6 s on peaks while it does), and not for good.
inline constexpr double kProvisionalPeaksS = 600;
// Whether provisional peaks measured at `measured_at_s` still serve at `now_s` (Unix seconds; a
// time in the future, a clock set back, does not).
bool still_provisional(double measured_at_s, double now_s);

}  // namespace perfgate
