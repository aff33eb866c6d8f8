#include "measure/sampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <span>

#include "measure/calibration.h"
#include "measure/precision_criterion.h"
#include "stats/sample_series.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The settings the stopping rule reads: the baseline's median only where it is of the series
// sampled (relative to a reference, or raw times), so a verdict is never read off another one.
SamplingSettings baseline_for(const SamplingSettings& options, bool relative) {
  SamplingSettings rule = options;
  if (rule.verdict_baseline_relative != relative) rule.verdict_baseline_median = 0;
  return rule;
}

}  // namespace

Samples pool(const std::vector<Samples>& allocations) {
  Samples pooled;
  if (allocations.empty()) return pooled;
  auto merged = [&](auto field) {
    std::vector<std::span<const double>> series;
    for (const auto& a : allocations) series.push_back(field(a));
    return pool_by_position(series);
  };
  pooled.device_ns = merged([](const Samples& a) -> const std::vector<double>& { return a.device_ns; });
  pooled.host_ns = merged([](const Samples& a) -> const std::vector<double>& { return a.host_ns; });
  pooled.sm_mhz = merged([](const Samples& a) -> const std::vector<double>& { return a.sm_mhz; });
  pooled.memory_mhz = merged([](const Samples& a) -> const std::vector<double>& { return a.memory_mhz; });
  pooled.reference_ns = merged([](const Samples& a) -> const std::vector<double>& { return a.reference_ns; });
  pooled.relative = merged([](const Samples& a) -> const std::vector<double>& { return a.relative; });
  std::size_t stages = 0;
  for (const auto& a : allocations) stages = std::max(stages, a.stage_ns.size());
  for (std::size_t s = 0; s < stages; ++s) {
    static const std::vector<double> none;
    pooled.stage_ns.push_back(merged([s](const Samples& a) -> const std::vector<double>& {
      return s < a.stage_ns.size() ? a.stage_ns[s] : none;
    }));
  }
  pooled.cold_device_ns =
      merged([](const Samples& a) -> const std::vector<double>& { return a.cold_device_ns; });
  pooled.converged = true;
  for (const auto& a : allocations) {
    pooled.dispatches_per_batch = a.dispatches_per_batch;
    pooled.warmup_s += a.warmup_s;
    pooled.converged = pooled.converged && a.converged;
    pooled.restarts += a.restarts;
    pooled.throttled += a.throttled;
  }
  return pooled;
}

Warmup warm_up(PreparedCase& prepared, const SamplingSettings& options) {
  Warmup out;

  // Batch size: enough dispatches that one batch outlasts the timer's resolution and the
  // submit overhead by far.
  double one_ns = std::max(1.0, prepared.time_batch(1, false).device_ns);
  out.dispatches_per_batch =
      std::clamp(static_cast<int>(std::ceil(options.batch_min_time_ms * 1e6 / one_ns)), 1, 1 << 20);

  // Warm-up: GPUs idle at a fraction of their clock. Run rounds of batches until two successive
  // round medians agree within 2%, for at least warmup_s and at most a quarter of the timeout.
  const auto warm_start = Clock::now();
  double previous = 0;
  for (;;) {
    std::vector<double> round;
    for (int i = 0; i < 3; ++i) {
      BatchTiming t = prepared.time_batch(out.dispatches_per_batch, false);
      round.push_back(t.device_ns / t.dispatches);
    }
    const double current = median(round);
    out.dispatch_ns = current;
    const double spent = seconds_since(warm_start);
    const bool settled = previous > 0 && std::abs(current / previous - 1) < 0.02;
    if ((settled && spent >= options.warmup_s) || spent >= options.timeout_s / 4) break;
    previous = current;
    // Re-size the batch now that clocks are higher.
    out.dispatches_per_batch = std::clamp(
        static_cast<int>(std::ceil(options.batch_min_time_ms * 1e6 / std::max(1.0, current))), 1, 1 << 20);
  }
  out.warmup_s = seconds_since(warm_start);
  return out;
}

Samples sample(PreparedCase& prepared, const SamplingSettings& options, const GpuClocks* clocks,
               PreparedCase* reference) {
  Samples out;
  const auto start = Clock::now();
  const Warmup reference_warm = reference ? warm_up(*reference, options) : Warmup{};
  const Warmup warm = warm_up(prepared, options);
  // The reference's batch lasts a good part of the case's, whatever their dispatch times: a
  // reference far shorter than its case samples another moment of the machine.
  const int reference_batch =
      reference ? calibration_batch(reference_warm.dispatches_per_batch, reference_warm.dispatch_ns,
                                    warm.dispatches_per_batch * warm.dispatch_ns)
                : 0;
  out.dispatches_per_batch = warm.dispatches_per_batch;
  out.warmup_s = warm.warmup_s;

  // Sampling. A level shift inside the samples (the latest third's median more than
  // kShiftPct away from the first third's) means the device changed state under the
  // measurement, e.g. a GPU reaching its top clock only after a plateau that fooled the
  // warm-up; the samples before it are dropped and sampling starts again, a bounded number
  // of times. Looked for in the series the verdict reads: where calibrated, the case's time
  // relative to its reference, so a step of the machine's level that both feel (a VM's
  // neighbour, llvmpipe's threads) is what calibration cancels, not a reason to start again;
  // raw times stepped 5% in 18 of 37 llvmpipe checks and 14 of 38 CPU checks of one ctest run
  // (docs/performance.md, "Level shifts looked for in the judged series").
  constexpr double kShiftPct = 5;
  constexpr int kMaxRestarts = 2;
  for (int restarts = 0;; ++restarts) {
    const auto sampling_start = Clock::now();
    PrecisionCriterion criterion = stopping_rule(baseline_for(options, reference != nullptr));
    for (;;) {
      // A calibrated round: the reference's batch right before the case's, so both see the
      // same moment of the machine.
      const double reference_ns =
          reference ? reference->time_batch(reference_batch, false).device_ns / reference_batch : 0;
      BatchTiming t = prepared.time_batch(out.dispatches_per_batch, false);
      if (clocks) {
        const ClockReading now = clocks->read();
        if (clocks->throttled(now)) {
          ++out.throttled;
          if (seconds_since(start) >= options.timeout_s) break;
          continue;
        }
        out.sm_mhz.push_back(now.sm_mhz);
        out.memory_mhz.push_back(now.memory_mhz);
      }
      out.device_ns.push_back(t.device_ns / t.dispatches);
      out.host_ns.push_back(t.host_ns / t.dispatches);
      if (reference && reference_ns > 0) {
        out.reference_ns.push_back(reference_ns);
        out.relative.push_back(out.device_ns.back() / reference_ns);
      }
      if (out.stage_ns.size() < t.stage_device_ns.size()) out.stage_ns.resize(t.stage_device_ns.size());
      for (std::size_t s = 0; s < t.stage_device_ns.size(); ++s)
        out.stage_ns[s].push_back(t.stage_device_ns[s] / t.dispatches);

      if (criterion.is_finished(static_cast<int>(out.device_ns.size()),
                                reference ? out.relative : out.device_ns, seconds_since(sampling_start),
                                seconds_since(start))) {
        out.converged = criterion.converged();
        break;
      }
    }
    if (restarts == kMaxRestarts || seconds_since(start) >= options.timeout_s / 2 ||
        !level_shift(reference ? out.relative : out.device_ns, kShiftPct))
      break;
    out.restarts = restarts + 1;
    out.converged = false;
    out.device_ns.clear();
    out.host_ns.clear();
    out.stage_ns.clear();
    out.sm_mhz.clear();
    out.memory_mhz.clear();
    out.reference_ns.clear();
    out.relative.clear();
  }

  for (int i = 0; i < options.cold_samples && seconds_since(start) < options.timeout_s; ++i) {
    BatchTiming t = prepared.time_batch(1, true);
    out.cold_device_ns.push_back(t.device_ns);
  }
  return out;
}

}  // namespace perfgate
