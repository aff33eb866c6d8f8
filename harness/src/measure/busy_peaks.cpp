#include "measure/busy_peaks.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/cpu_wait.h"
#include "stats/summary.h"

namespace perfgate {

Repetitions repetitions_of(std::span<const double> samples) {
  const std::size_t half = samples.size() / 2;
  if (half < static_cast<std::size_t>(kMinRepetitionSamples)) return {};
  // An odd sample out goes to the second half: the later moment, the one nearer the cases.
  return {summarize(samples.first(half)).p95, summarize(samples.subspan(half)).p95};
}

bool disagree(const Repetitions& r) {
  const double high = std::max(r.first, r.second);
  if (!(r.first > 0) || !(r.second > 0)) return false;
  return std::min(r.first, r.second) < (1 - kRepetitionsDisagreePct / 100) * high;
}

namespace {

void add_waiting(std::vector<std::string>& why, const char* what, const MeasurementEvidence& e) {
  if (!(e.cpu_wait_share > kBusyCpuWaitShare)) return;
  char text[120];
  std::snprintf(text, sizeof text, "%s waited for a core %.0f%% of its time", what, 100 * e.cpu_wait_share);
  why.push_back(text);
}

void add_disagreement(std::vector<std::string>& why, const char* what, const Repetitions& r,
                      const char* unit) {
  if (!disagree(r)) return;
  char text[160];
  std::snprintf(text, sizeof text, "%s's two repetitions disagree: %.3g and %.3g %s", what, r.first, r.second,
                unit);
  why.push_back(text);
}

}  // namespace

std::string busy_peaks_reason(const PeaksEvidence& evidence) {
  std::vector<std::string> why;
  add_waiting(why, "DRAM copy", evidence.dram);
  add_waiting(why, "fma_peak", evidence.fma);
  add_waiting(why, "the cache sweep", evidence.sweep);
  add_disagreement(why, "DRAM copy", evidence.dram.repetitions, "GB/s");
  add_disagreement(why, "fma_peak", evidence.fma.repetitions, "GFLOP/s");
  if (evidence.sweep_disturbed) why.push_back("the cache sweep was disturbed");
  std::string text;
  for (const auto& w : why) text += (text.empty() ? "" : "; ") + w;
  return text;
}

bool still_provisional(double measured_at_s, double now_s) {
  return measured_at_s <= now_s && now_s - measured_at_s < kProvisionalPeaksS;
}

}  // namespace perfgate
