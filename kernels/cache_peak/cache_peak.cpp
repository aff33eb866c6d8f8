// cache_peak: the last-level cache's read bandwidth. A buffer of n floats, small enough to stay
// in the cache, is read `iters` times in one dispatch; element block i of the output sums the
// vec4s (i + r * kShiftVec4) mod n/4 over the passes r. The shift moves every workgroup (every
// CPU thread's block) to another part of the buffer each pass, so what a pass reads was last
// read by someone else, from the shared cache, not from a core's private L1.
#include <algorithm>
#include <cstdint>

#include "perfgate/registry.h"

using namespace perfgate;

namespace {
// 397 (a prime) tiles of 256 vec4s: workgroups sharing a multiprocessor come back to one
// another's tiles only after hundreds of passes, more than a case makes.
constexpr std::int64_t kShiftVec4 = 397 * 256;

std::int64_t source_vec4(std::int64_t i, std::int64_t r, std::int64_t n4) { return (i + r * kShiftVec4) % n4; }
}  // namespace

PERFGATE_KERNEL(cache_peak) {
  return KernelDef("cache_peak")
      .describe("rereads an in-cache buffer of n floats `iters` times per dispatch: last-level cache bandwidth")
      .axis("n", {1 << 20})
      .axis("iters", {16}, {Backend::cpu})
      .axis("iters", {32}, {Backend::vulkan})
      .axis("wg", {256}, {Backend::vulkan})
      .valid([](const Params& p, Backend) { return p["n"] % 1024 == 0; })
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::f32, n / 4, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        const double iters = static_cast<double>(p["iters"]);
        // 4 adds per vec4 read (3 across its lanes, 1 into the sum): below any ridge point.
        return Cost{4.0 * n * iters, n, n * iters};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            auto a = in.get<float>("a");
            const std::int64_t n4 = p["n"] / 4;
            std::vector<double> y(static_cast<std::size_t>(n4), 0.0);
            for (std::int64_t i = 0; i < n4; ++i)
              for (std::int64_t r = 0; r < p["iters"]; ++r) {
                const std::int64_t s = 4 * source_vec4(i, r, n4);
                y[i] += double(a[s]) + double(a[s + 1]) + double(a[s + 2]) + double(a[s + 3]);
              }
            return expect("y", std::move(y));
          },
          1e-5,
          "float32 sums of 4 x iters terms in another order: relative error ~ sqrt(4 iters) x "
          "2^-24, under 1e-6 for iters <= 1024")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict a = buf.get<float>("a").data();
        float* __restrict y = buf.get<float>("y").data();
        const std::int64_t n4 = p["n"] / 4;
        const std::int64_t iters = p["iters"];
        constexpr std::int64_t kBlock = 256;  // vec4s summed in L1-resident registers per pass
#pragma omp parallel for schedule(static)
        for (std::int64_t first = 0; first < n4; first += kBlock) {
          const std::int64_t count = std::min(kBlock, n4 - first);
          float sum[4 * kBlock] = {};
          for (std::int64_t r = 0; r < iters; ++r) {
            const std::int64_t from = source_vec4(first, r, n4);
            // The block is contiguous in the buffer unless it wraps at the end.
            const std::int64_t straight = std::min(count, n4 - from);
            const float* src = a + 4 * from;
#pragma omp simd
            for (std::int64_t k = 0; k < 4 * straight; ++k) sum[k] += src[k];
#pragma omp simd
            for (std::int64_t k = 4 * straight; k < 4 * count; ++k) sum[k] += a[k - 4 * straight];
          }
          for (std::int64_t k = 0; k < count; ++k)
            y[first + k] = (sum[4 * k] + sum[4 * k + 1]) + (sum[4 * k + 2] + sum[4 * k + 3]);
        }
      })
      // kernels/cache_peak/cache_peak.comp: one vec4 per thread per pass.
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        const std::uint32_t groups = (n / 4 + wg - 1) / wg;
        return VulkanPlan{{Dispatch{"cache_peak/cache_peak",
                                    {"a", "y"},
                                    {wg},
                                    {n / 4, static_cast<std::uint32_t>(p["iters"]),
                                     static_cast<std::uint32_t>(kShiftVec4)},
                                    {std::clamp(groups, 1u, 65535u), 1, 1},
                                    "cache_peak"}}};
      });
}
