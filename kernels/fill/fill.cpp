// fill: b = value. Write-only traffic: with copy (read + write) and reduce (read only) it shows
// whether a regression is in the read or the write path.
#include <algorithm>
#include <bit>

#include "perfgate/registry.h"

using namespace perfgate;

namespace {
constexpr float kValue = 0.75f;  // exact in float32; any poison left behind differs from it
}

PERFGATE_KERNEL(fill) {
  return KernelDef("fill")
      .describe("b = value over n floats: write-only bandwidth")
      .axis("n", {1 << 20, 1 << 25})
      .axis("wg", {256}, {Backend::vulkan})
      .buffers([](const Params& p) {
        return std::vector<BufferSpec>{
            {"b", ElementType::f32, static_cast<std::size_t>(p["n"]), BufferRole::output}};
      })
      .cost([](const Params& p) {
        return Cost{0, 4.0 * static_cast<double>(p["n"]), 0};
      })
      .reference(
          [](const Params& p, const Buffers&) {
            return expect("b", std::vector<double>(static_cast<std::size_t>(p["n"]), kValue));
          },
          0.0, "a store of a constant is exact")
      .cpu([](const Params& p, Buffers& buf) {
        float* __restrict b = buf.get<float>("b").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
        // The value passes through a volatile so the loop stays a store loop, not a memset call
        // whose speed would be the C library's, not the kernel's.
        volatile float v = kValue;
        const float value = v;
#pragma omp parallel for simd schedule(static)
        for (std::int64_t i = 0; i < n; ++i) b[i] = value;
      })
      // kernels/fill/fill.comp: 4 vec4 stores per thread per tile, workgroups striding over tiles.
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        const std::uint32_t tiles = ((n + 3) / 4 + 4 * wg - 1) / (4 * wg);
        return VulkanPlan{{Dispatch{"fill/fill",
                                    {"b"},
                                    {wg, 4},
                                    {n, std::bit_cast<std::uint32_t>(kValue)},
                                    {std::clamp(tiles, 1u, 65535u), 1, 1},
                                    "fill"}}};
      });
}
