// triad: a = b + s * c, the STREAM triad.
#include <algorithm>
#include <bit>

#include "perfgate/registry.h"

using namespace perfgate;

namespace {
constexpr float kScalar = 3.0f;
}

PERFGATE_KERNEL(triad) {
  return KernelDef("triad")
      .describe("STREAM triad a = b + 3 c over n floats (2 reads, 1 write per element)")
      .axis("n", {1 << 20, 1 << 25})
      .axis("wg", {256}, {Backend::vulkan})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, n, BufferRole::output},
                                       {"b", ElementType::f32, n, BufferRole::input},
                                       {"c", ElementType::f32, n, BufferRole::input}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{8.0 * n, 4.0 * n, 2.0 * n};
      })
      .reference(
          [](const Params&, const Buffers& in) {
            auto b = in.get<float>("b");
            auto c = in.get<float>("c");
            std::vector<double> a(b.size());
            for (std::size_t i = 0; i < a.size(); ++i) a[i] = double(b[i]) + double(kScalar) * c[i];
            return expect("a", std::move(a));
          },
          1e-6, "one float32 FMA per element: error <= 1 ulp (6e-8) relative to |b| + 3|c|")
      .cpu([](const Params& p, Buffers& buf) {
        float* __restrict a = buf.get<float>("a").data();
        const float* __restrict b = buf.get<float>("b").data();
        const float* __restrict c = buf.get<float>("c").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
#pragma omp parallel for simd schedule(static)
        for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + kScalar * c[i];
      })
      // kernels/triad/triad.comp: copy's tiling; the scalar travels as a push constant.
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        const std::uint32_t tiles = ((n + 3) / 4 + 4 * wg - 1) / (4 * wg);  // 4 vec4s per thread
        return VulkanPlan{{Dispatch{"triad/triad",
                                    {"a", "b", "c"},
                                    {wg, 4},
                                    {n, std::bit_cast<std::uint32_t>(kScalar)},
                                    {std::clamp(tiles, 1u, 65535u), 1, 1},
                                    "triad"}}};
      });
}
