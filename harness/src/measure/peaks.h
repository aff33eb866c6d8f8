#pragma once
// The device's measured ceilings: the copy kernel's bandwidth and the FMA kernel's GFLOP/s.
// Measured once per device and cached, so every ctest process does not measure them again.
#include <filesystem>

#include "measure/device.h"
#include "measure/measure_case.h"

namespace perfgate {

// Reads `<cache_dir>/peaks-<machine id>.json`, or measures and writes it. A cache written by
// another perfgate version, an unreadable cache or one holding a zero is measured again. Returns
// zeros for what could not be measured (a peak kernel failed its check), and then writes nothing.
Peaks device_peaks(Device& device, const std::filesystem::path& cache_dir);

}  // namespace perfgate
