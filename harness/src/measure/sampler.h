#pragma once
// Warm-up, batch sizing and adaptive sampling: sample until the median is known to the target
// precision, within a minimum sample count, a minimum time and a timeout (the stopping rule is
// measure/precision_criterion.h).
#include <functional>
#include <vector>

#include "core/sampling_settings.h"
#include "measure/device.h"
#include "measure/gpu_clocks.h"

namespace perfgate {

struct Samples {
  std::vector<double> device_ns;              // per dispatch, one per batch
  std::vector<double> host_ns;                // per dispatch, one per batch
  std::vector<std::vector<double>> stage_ns;  // [stage][sample], per dispatch
  std::vector<double> cold_device_ns;         // one dispatch each, caches flushed before
  int dispatches_per_batch = 1;
  double warmup_s = 0;         // time spent warming up
  bool converged = false;      // the target precision was reached
  int restarts = 0;            // samplings dropped after a level shift inside them
  std::vector<double> sm_mhz;  // GPU clocks read after each kept batch, where known
  std::vector<double> memory_mhz;
  int throttled = 0;  // batches dropped: taken while the GPU was throttled
  // Calibrated sampling only (measure/calibration.h): the reference's time per dispatch in the
  // batch right before each case batch, and the case's time relative to it, one per round.
  std::vector<double> reference_ns;
  std::vector<double> relative;
};

// The samples of several allocations of one case, pooled: every series by relative position in
// its allocation's sampling (stats/sample_series.h, pool_by_position), so the drift tests see
// drift within allocations and not the step from one placement to the next.
Samples pool(const std::vector<Samples>& allocations);

// Sizes the batch (each lasting at least batch_min_time_ms) and warms the device until
// successive medians agree: what sample() does first, and what an A/B server does before it
// takes samples on demand.
struct Warmup {
  int dispatches_per_batch = 1;
  double warmup_s = 0;
  double dispatch_ns = 0;  // one dispatch's time once warm (the last round's median)
};
Warmup warm_up(PreparedCase& prepared, const SamplingSettings& options);

// `clocks` (nullable): where given, each batch's clocks are recorded and a batch taken while
// the GPU was clearly throttled is dropped (GpuClocks::throttled).
// `reference` (nullable): calibrated sampling, a batch of the reference before each batch of the
// case; sampling then stops on the precision of the relative times.
Samples sample(PreparedCase& prepared, const SamplingSettings& options, const GpuClocks* clocks = nullptr,
               PreparedCase* reference = nullptr);

}  // namespace perfgate
