#pragma once
// Where the last-level cache ends, from what the machine does rather than the size it reports:
// copy's bandwidth over a sweep of working sets stays on the cache's plateau while they fit and
// falls to DRAM's where they no longer do. A VM reports its host's cache (a 2-vCPU guest: 260
// to 480 MiB, shared with every other guest), which put every CPU case "in cache" and judged
// DRAM-sized copies against a cache ceiling they cannot reach.
#include <vector>

namespace perfgate {

struct SweepPoint {
  double working_set_bytes = 0;
  double bandwidth_gbps = 0;  // what copy reached over that working set
};

// Above this multiple of DRAM's ceiling a working set is still served from the cache: past the
// knee, a case judged against DRAM's ceiling runs at most about this share of it.
inline constexpr double kInCacheOverDram = 1.1;

struct CacheEstimate {
  // The largest working set served from the cache: where bandwidth falls below
  // kInCacheOverDram x DRAM, interpolated between the two sweep points around it (in log size).
  // 0 when no step is seen: no working set reaches past DRAM's ceiling, so none is in cache.
  double cache_bytes = 0;
  // The cache's ceiling: the best bandwidth of the sweep at or below cache_bytes; 0 without a step.
  double cache_bandwidth_gbps = 0;
  // A point past the fastest one below half of DRAM's ceiling: no working set that large streams
  // slower than DRAM on a quiet machine, so its dispatches waited for a core (2 vCPUs under
  // parallel builds: 128 KiB copies at 0.02 GB/s). Nothing is derived from such a sweep.
  bool disturbed = false;
};

// Below this share of DRAM's ceiling a sweep point was disturbed (CacheEstimate::disturbed).
inline constexpr double kDisturbedBelowDram = 0.5;

// `sweep` in any order; `dram_gbps` DRAM's ceiling (copy over a working set past any cache).
// Walking up from the fastest point, the cache ends at the first point below the in-cache level:
// a point above it further on is noise, not a second cache.
CacheEstimate estimate_cache(std::vector<SweepPoint> sweep, double dram_gbps);

// `sweep` measured so far, smallest working set first: true once its last point fell below the
// in-cache level after an earlier one reached it. estimate_cache ends the cache there whatever
// larger working sets do, so the sweep stops: a machine with a 32 MiB cache measures no 128 MiB
// copy (the sweep's dearest point: its inputs made and checked, ~1 s on the 2-core CI machine).
bool sweep_past_knee(const std::vector<SweepPoint>& sweep, double dram_gbps);

}  // namespace perfgate
