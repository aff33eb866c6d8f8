#pragma once
// The GPU's SM and memory clocks while it is measured, where the driver tells them: NVIDIA's
// management library (NVML), loaded at run time if present. Nothing is required elsewhere:
// llvmpipe, other vendors and machines without the library simply have no clock reader.
#include "perfgate/result.h"

namespace perfgate {

struct ClockReading {
  double sm_mhz = 0;
  double memory_mhz = 0;
};

class GpuClocks {
 public:
  // The reader for the device of `fingerprint` (matched by UUID), or nullptr when it is not an
  // NVIDIA GPU or NVML is not there. Opened once per process and device.
  static const GpuClocks* for_device(const Fingerprint& fingerprint);

  ClockReading read() const;
  // A sample taken below this fraction of the default SM clock was taken while the GPU was
  // clearly throttled (the same rule as nvbench's) and is dropped.
  static constexpr double kThrottledFraction = 0.75;
  bool throttled(const ClockReading& r) const {
    return r.sm_mhz > 0 && default_sm_mhz_ > 0 && r.sm_mhz < kThrottledFraction * default_sm_mhz_;
  }

 private:
  struct Library;
  GpuClocks(const Library* library, void* device, double default_sm_mhz)
      : library_(library), device_(device), default_sm_mhz_(default_sm_mhz) {}
  const Library* library_;
  void* device_;
  // The SM clock the device runs at by default (its default application clock, else its
  // maximum): the reference a throttled sample is judged against.
  double default_sm_mhz_;
};

}  // namespace perfgate
