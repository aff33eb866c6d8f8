#pragma once
// The Vulkan dispatch of a row kernel (one row per workgroup, workgroup reductions): the
// subgroup variant "<folder>/<stem>" where the device has subgroup arithmetic, else the
// shared-memory variant "<folder>/<stem>_shared".
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "perfgate/error.h"
#include "perfgate/kernel.h"

namespace perfgate::kernels {

inline bool valid_row_workgroup(std::int64_t wg) {
  return wg >= 1 && wg <= 1024 && std::has_single_bit(std::uint64_t(wg));
}

// Vector loads per thread when wg threads share `count` of them (specialization constant 1 of
// the row shaders: a register array, so bounded).
inline std::uint32_t items_per_thread(std::int64_t count, std::int64_t wg, const std::string& what) {
  const std::int64_t items = (count + wg - 1) / wg;
  if (items > 32)
    throw Error(what + ": " + std::to_string(count) + " loads over wg=" + std::to_string(wg) +
                " threads is more than 32 registers each: raise wg");
  return std::uint32_t(std::max<std::int64_t>(items, 1));
}

// Specialization: 0 the workgroup size, 1 `items`, then `more`.
inline Dispatch row_dispatch(const std::string& shader, const DeviceLimits& limits, std::int64_t wg,
                             std::uint32_t items, std::int64_t rows,
                             std::vector<std::uint32_t> push_constants, std::vector<std::string> bindings,
                             std::string stage, std::vector<std::uint32_t> more = {}) {
  if (std::uint64_t(wg) > limits.max_workgroup_invocations)
    throw Error(shader + ": wg=" + std::to_string(wg) + " exceeds the device's " +
                std::to_string(limits.max_workgroup_invocations) + " invocations per workgroup");
  Dispatch d;
  d.shader = limits.subgroup_arithmetic ? shader : shader + "_shared";
  d.bindings = std::move(bindings);
  d.specialization = {std::uint32_t(wg), items};
  d.specialization.insert(d.specialization.end(), more.begin(), more.end());
  d.push_constants = std::move(push_constants);
  // Beyond 65535 workgroups (a grid dimension's guaranteed limit) the rows go to y as well,
  // split evenly: 65536 rows as 32768 x 2, not 65535 x 2 with half the workgroups empty (the
  // shaders index rows by x + y * width and return past the last).
  const auto n = std::uint32_t(rows), y = (n + 65534) / 65535;
  d.groups = {(n + y - 1) / y, y, 1};
  d.stage = std::move(stage);
  return d;
}

// Whether a matrix-vector product can take its subgroup-per-rows shader: subgroup arithmetic,
// whole subgroups per workgroup, and a subgroup size that is a multiple of `lanes` (the lanes
// that share a unit of the weights). Otherwise it takes the workgroup-per-row shader, so every
// workgroup size works on every device (wg=32 on a device with 64-lane subgroups, say).
inline bool fits_subgroup_rows(const Params& p, const DeviceLimits& limits, std::int64_t lanes = 1) {
  const std::int64_t sg = limits.subgroup_size, wg = p["wg"];
  return limits.subgroup_arithmetic && wg >= sg && wg % sg == 0 && sg % lanes == 0;
}

// The limits under which a plan takes the shared-memory variants (which every device runs).
inline DeviceLimits without_subgroups(DeviceLimits limits) {
  limits.subgroup_arithmetic = false;
  return limits;
}

// The dispatch of a matrix-vector shader with a subgroup per 2 rows ("<kernel>/<kernel>_rows":
// each x load serves both rows, one subgroupAdd per row, no barrier), where fits_subgroup_rows.
// A row is `units` loads of x, spread over the lanes up to 8 per lane per step.
inline Dispatch subgroup_rows_dispatch(const std::string& kernel, const Params& p, const DeviceLimits& limits,
                                       std::int64_t units,
                                       std::vector<std::string> bindings = {"w", "x", "y"}) {
  const std::int64_t sg = limits.subgroup_size, wg = p["wg"];
  constexpr std::int64_t kRows = 2, kMaxItems = 8;  // the best of 1/2/4 x 4/8/16 on an H100
  const std::int64_t rows_per_group = kRows * (wg / sg);
  return row_dispatch(kernel + "/" + kernel + "_rows", limits, wg,
                      std::uint32_t(std::clamp<std::int64_t>((units + sg - 1) / sg, 1, kMaxItems)),
                      (p["m"] + rows_per_group - 1) / rows_per_group,
                      {std::uint32_t(p["m"]), std::uint32_t(p["k"])}, std::move(bindings), kernel,
                      {std::uint32_t(kRows)});
}

// The common part of a row kernel's definition: a rows x cols float32 matrix read as vec4 rows,
// and the workgroup size on Vulkan. Sizes: 1024 x 4096 (16 MiB per buffer) by default;
// --axis rows=16384 fills an H100.
inline KernelDef row_kernel(std::string name, std::string description) {
  return KernelDef(std::move(name))
      .describe(std::move(description))
      .axis("rows", {1024})
      .axis("cols", {4096})
      .axis("wg", {256}, {Backend::vulkan})
      .valid([](const Params& p, Backend backend) {
        if (p["rows"] < 1 || p["cols"] < 4 || p["cols"] % 4) return false;
        return backend == Backend::cpu || valid_row_workgroup(p["wg"]);
      });
}

// The common part of a matrix-vector kernel (one row of W per workgroup): m x k, k a multiple
// of `k_multiple` (whole vector loads), the workgroup size on Vulkan, and its dispatch of
// "<folder>/<stem>" with `bindings` (W, the input(s), y); a row is `loads_per_row(k)` vector
// loads, and `more(k)` is appended to the specialization constants.
inline KernelDef matvec_kernel(std::string name, std::string description, std::int64_t k_multiple,
                               std::int64_t wg, std::string shader,
                               std::int64_t (*loads_per_row)(std::int64_t),
                               std::vector<std::uint32_t> (*more)(std::int64_t),
                               std::vector<std::string> bindings = {"w", "x", "y"}) {
  return KernelDef(std::move(name))
      .describe(std::move(description))
      .axis("m", {2560, 4096})
      .axis("k", {2560, 4096})
      .axis("wg", {wg}, {Backend::vulkan})
      .valid([k_multiple](const Params& p, Backend backend) {
        if (p["m"] < 1 || p["k"] < k_multiple || p["k"] % k_multiple) return false;
        return backend == Backend::cpu || valid_row_workgroup(p["wg"]);
      })
      .vulkan([shader, loads_per_row, more, bindings](const Params& p, const DeviceLimits& limits) {
        const auto items = items_per_thread(loads_per_row(p["k"]), p["wg"], shader);
        return VulkanPlan{{row_dispatch(shader, limits, p["wg"], items, p["m"],
                                        {std::uint32_t(p["m"]), std::uint32_t(p["k"])}, bindings,
                                        shader.substr(shader.find('/') + 1), more(p["k"]))}};
      });
}

}  // namespace perfgate::kernels
