#pragma once
// How long this process's threads have waited for a core: runnable, but another task had it. On a
// shared machine this is what a busy moment costs a CPU measurement (the kernel's OpenMP team, or
// llvmpipe's threads, waiting for time slices), whether or not the samples show it: under a load
// of 3 on 2 vCPUs every copy dispatch waited ~7 ms alike, so the samples agreed with each other
// and DRAM's ceiling came out at 11 GB/s against 25 quiet.
#include <chrono>
#include <optional>

namespace perfgate {

// Above this share of a measurement's time spent waiting for a core (its threads summed) the
// machine was busy. Quiet, the 2-vCPU CI machine's peaks waited under 2%; under a load of 2.5, up
// to 51% (docs/performance.md).
inline constexpr double kBusyCpuWaitShare = 0.1;

// The sum over this process's live threads of the time each spent runnable but not running, in
// ns since it started (Linux: /proc/self/task/*/schedstat, second field). nullopt where the system
// does not say. Threads that ended are not counted.
std::optional<double> cpu_wait_ns();

// The time waited for a core from its construction on, as a share of the wall time since: 1.0 is
// one thread's worth of waiting all along. 0 where the system does not say.
class CpuWaitMeter {
 public:
  CpuWaitMeter();
  double share() const;

 private:
  std::chrono::steady_clock::time_point start_;
  std::optional<double> start_ns_;
};

}  // namespace perfgate
