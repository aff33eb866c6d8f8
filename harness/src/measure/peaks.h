#pragma once
// The device's measured ceilings: DRAM bandwidth (copy over a working set past the last-level
// cache), the last-level cache's size and bandwidth (cache_peak, or copy inside the cache,
// whichever is higher) and the FMA kernel's GFLOP/s. A Vulkan device's cache size is the one it
// reports (a GPU's L2 is reported right); the CPU backend's is where copy's bandwidth falls over
// a sweep of working sets (measure/cache_sweep.h), since a VM reports its host's. Measured once
// per device and cached (the sweep with them), so every ctest process does not measure them again;
// peaks measured in a busy moment (measure/busy_peaks.h) are cached as provisional, for minutes.
#include <filesystem>
#include <string>

#include "measure/device.h"
#include "measure/measure_case.h"

namespace perfgate {

struct DevicePeaks {
  Peaks peaks;
  // Why these peaks are provisional (measured in a busy moment, measure/busy_peaks.h), whether
  // measured now or read from the cache; empty when they stand.
  std::string busy_why;
};

// Reads `<cache_dir>/peaks-<machine id>.json`, or measures and writes it. A cache written by
// another perfgate version, an unreadable cache, one holding a zero DRAM or FMA ceiling, or a
// provisional one past kProvisionalPeaksS is measured again. Returns zeros for what could not be
// measured (no such kernel in the registry, or it failed its check); without the DRAM and FMA
// ceilings nothing is written.
DevicePeaks device_peaks(Device& device, const std::filesystem::path& cache_dir);

}  // namespace perfgate
