// reduce: sum of n floats. Read-only bandwidth: one pass over the input, one float written.
#include <algorithm>
#include <random>

#include "perfgate/registry.h"

using namespace perfgate;

namespace {
constexpr std::size_t kPartials = 4096;  // first-pass results on the GPU (scratch)
}

PERFGATE_KERNEL(reduce) {
  return KernelDef("reduce")
      .describe("sum = a[0] + ... + a[n-1] over n floats (read-only bandwidth)")
      .axis("n", {1 << 20, 1 << 25})
      .axis("wg", {256}, {Backend::vulkan})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, n, BufferRole::input},
                                       {"partials", ElementType::f32, kPartials, BufferRole::scratch},
                                       {"sum", ElementType::f32, 1, BufferRole::output}};
      })
      // Positive inputs: a sum of values in [-1, 1] cancels towards 0, which would make the
      // relative error meaningless.
      .fill([](const Params&, Buffers& buf, Rng& rng) {
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (float& x : buf.get<float>("a")) x = u(rng);
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4.0 * n, 4.0, n};
      })
      .reference(
          [](const Params&, const Buffers& in) {
            double sum = 0;
            for (float x : in.get<float>("a")) sum += x;
            return expect("sum", {sum});
          },
          1e-4,
          "float32 partial sums: each lane adds <= 2^22 values in [0,1); rounding errors of "
          "eps/2 * partial sum accumulate like a random walk, ~1e-5 of the total")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict a = buf.get<float>("a").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
        float sum = 0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) sum += a[i];
        buf.get<float>("sum")[0] = sum;
      })
      // kernels/reduce/reduce.comp twice: a -> partials (about 4 workgroups per compute unit,
      // each striding over a with 4 vec4 loads in flight per thread), then partials -> sum in
      // one workgroup. Subgroup arithmetic when the device has it, else a shared-memory tree.
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        constexpr std::uint32_t kVec4PerThread = 4;
        const std::uint32_t tiles = ((n + 3) / 4 + wg * kVec4PerThread - 1) / (wg * kVec4PerThread);
        const std::uint32_t groups =
            std::clamp(std::min(tiles, 4 * d.compute_units), 1u, static_cast<std::uint32_t>(kPartials));
        const std::vector<std::uint32_t> spec{wg, kVec4PerThread, d.subgroup_arithmetic ? 1u : 0u};
        return VulkanPlan{
            {Dispatch{"reduce/reduce", {"a", "partials"}, spec, {n}, {groups, 1, 1}, "partials"},
             Dispatch{"reduce/reduce", {"partials", "sum"}, spec, {groups}, {1, 1, 1}, "final"}}};
      });
}
