#include "measure/calibration.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "measure/case_selection.h"
#include "measure/measure_case.h"
#include "perfgate/error.h"
#include "perfgate/registry.h"

namespace perfgate {

std::optional<CaseSpec> calibration_reference(const CaseSpec& spec, const Device& device, const Peaks& peaks,
                                              const std::string& pinned) {
  if (!pinned.empty()) {
    CaseSpec reference = parse_case_id(pinned);
    if (!reference.kernel->name().starts_with("calibration_") || reference.backend != device.backend())
      throw Error("the baseline of " + spec.id + " names " + pinned +
                  " as its calibration reference, which is no reference kernel on " +
                  std::string(to_string(device.backend())));
    return reference;
  }
  const Cost cost = spec.kernel->cost_of(spec.params);
  const double bytes = cost.bytes();
  const double ridge = peaks.bandwidth_gbps > 0 && peaks.gflops > 0 ? peaks.gflops / peaks.bandwidth_gbps : 8;
  const bool compute = cost.flops > 0 && (bytes == 0 || cost.flops / bytes >= ridge);
  const char* name = compute ? "calibration_fma" : "calibration_stream";
  const KernelDef* kernel = find_kernel(name);
  if (!kernel || !kernel->has_backend(device.backend())) return std::nullopt;

  std::map<std::string, std::int64_t> values;
  if (compute) {
    values = {{"n", 65536}, {"iters", 512}};
  } else {
    // The stream moves what the case's cost model says it moves (n floats read, n written): the
    // same cache level, the same traffic. From the cost model, not the case's buffers: a code
    // change that makes the kernel touch more memory must not grow its own reference with it.
    const auto moved = static_cast<std::uint64_t>(bytes);
    const std::uint64_t n = std::clamp<std::uint64_t>(std::bit_floor(std::max<std::uint64_t>(moved / 8, 1)),
                                                      std::uint64_t{1} << 12, std::uint64_t{1} << 26);
    values = {{"n", static_cast<std::int64_t>(n)}};
  }
  if (device.backend() == Backend::vulkan) values["wg"] = 256;
  return case_of(*kernel, device.backend(), std::move(values),
                 std::string("the calibration reference ") + name);
}

int calibration_batch(int min_dispatches, double reference_dispatch_ns, double case_batch_ns) {
  const int least = std::max(min_dispatches, 1);
  if (reference_dispatch_ns <= 0 || case_batch_ns <= 0) return least;
  const double needed = std::ceil(kCalibrationShare * case_batch_ns / reference_dispatch_ns);
  return static_cast<int>(std::clamp(needed, static_cast<double>(least), static_cast<double>(1 << 20)));
}

}  // namespace perfgate
