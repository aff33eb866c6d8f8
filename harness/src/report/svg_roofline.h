#pragma once
// The roofline plot: each case at its arithmetic intensity (flops per byte) and achieved
// GFLOP/s, log-log, under the device's measured ceilings: DRAM and last-level cache bandwidth
// (the slanted roofs, copy's and cache_peak's) and the fma_peak kernel's GFLOP/s (the flat roof).
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate::svg {

struct RooflinePoint {
  std::string label;     // the case id
  double intensity = 0;  // flops per byte
  double gflops = 0;
  Verdict verdict = Verdict::pass;
  bool in_cache = false;  // judged against the cache roof: drawn hollow
};

// Ceilings of 0 are unknown and not drawn. Points without flops or bytes cannot be placed on a
// log-log plot: the caller leaves them out and says so.
std::string roofline_svg(const std::vector<RooflinePoint>& points, const Peaks& peaks);

}  // namespace perfgate::svg
