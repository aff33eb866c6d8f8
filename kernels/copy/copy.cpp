// copy: b = a. The device's practical memory bandwidth: every other kernel's % of peak is
// measured against what this one reaches.
#include <algorithm>
#include <cstring>

#include "perfgate/registry.h"

using namespace perfgate;

PERFGATE_KERNEL(copy) {
  return KernelDef("copy")
      .describe("b = a over n floats: the practical bandwidth ceiling (bytes read + written)")
      .axis("n", {1 << 20, 1 << 25})
      .axis("wg", {256}, {Backend::vulkan})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, n, BufferRole::input},
                                       {"b", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double bytes = 4.0 * static_cast<double>(p["n"]);
        return Cost{bytes, bytes, 0};
      })
      .reference(
          [](const Params&, const Buffers& in) {
            auto a = in.get<float>("a");
            return expect("b", std::vector<double>(a.begin(), a.end()));
          },
          0.0, "a copy is exact")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict a = buf.get<float>("a").data();
        float* __restrict b = buf.get<float>("b").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
#pragma omp parallel for simd schedule(static)
        for (std::int64_t i = 0; i < n; ++i) b[i] = a[i];
      })
      // kernels/copy/copy.comp: 4 vec4s per thread per tile, workgroups striding over tiles
      // (at most 65535 of them, the count every device allows).
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        const std::uint32_t tiles = ((n + 3) / 4 + 4 * wg - 1) / (4 * wg);  // 4 vec4s per thread
        return VulkanPlan{
            {Dispatch{"copy/copy", {"a", "b"}, {wg, 4}, {n}, {std::clamp(tiles, 1u, 65535u), 1, 1}, "copy"}}};
      });
}
