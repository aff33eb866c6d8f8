// fma_peak: the device's float32 FMA throughput. Each element runs kChains independent chains
// x = x * a + b for `iters` steps in registers; only the final values are written.
#include <algorithm>
#include <bit>
#include <cmath>

#include "perfgate/registry.h"

using namespace perfgate;

namespace {
constexpr int kChains = 8;
constexpr int kLanes = 8;     // one AVX2 register of floats per chain
constexpr float kA = 0.999f;  // |a| < 1: the chains converge to b / (1 - a) and stay finite
constexpr float kB = 0.001f;

// x_k = a^k x_0 + b (1 - a^k) / (1 - a): the chain's closed form, so the reference is cheap.
double chain(double x0, std::int64_t k) {
  const double ak = std::pow(double(kA), double(k));
  return ak * x0 + double(kB) * (1 - ak) / (1 - double(kA));
}
}  // namespace

PERFGATE_KERNEL(fma_peak) {
  return KernelDef("fma_peak")
      .describe("8 independent FMA chains per element in registers: float32 compute peak")
      .axis("n", {1 << 14}, {Backend::cpu})
      .axis("n", {1 << 20}, {Backend::vulkan})
      .axis("iters", {1024})
      .axis("wg", {256}, {Backend::vulkan})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4.0 * n, 4.0 * n, 2.0 * kChains * n * static_cast<double>(p["iters"])};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            auto x = in.get<float>("x");
            std::vector<double> y(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) {
              double sum = 0;
              for (int c = 0; c < kChains; ++c) sum += chain(double(x[i]) + 0.125 * c, p["iters"]);
              y[i] = sum;
            }
            return expect("y", std::move(y));
          },
          1e-4,
          "a contracting recurrence (|a| < 1) damps rounding errors: each step adds ~eps, the "
          "sum stays within ~1/(1-a) * eps = 6e-5 of the exact value")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict x = buf.get<float>("x").data();
        float* __restrict y = buf.get<float>("y").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
        const auto iters = p["iters"];
        // a and b pass through volatile so the compiler cannot fold the chains.
        volatile float va = kA, vb = kB;
        const float a = va, b = vb;
    // kLanes elements side by side: kChains x kLanes independent FMAs per step, enough
    // to cover the FMA latency on both pipes, and they vectorise along the lanes.
#pragma omp parallel for schedule(static)
        for (std::int64_t base = 0; base < n; base += kLanes) {
          const std::int64_t lanes = std::min<std::int64_t>(kLanes, n - base);
          float v[kChains][kLanes];
          for (int c = 0; c < kChains; ++c)
            for (int l = 0; l < kLanes; ++l) v[c][l] = (l < lanes ? x[base + l] : 0.0f) + 0.125f * c;
          for (std::int64_t k = 0; k < iters; ++k)
            for (int c = 0; c < kChains; ++c)
#pragma omp simd
              for (int l = 0; l < kLanes; ++l) v[c][l] = std::fma(v[c][l], a, b);
          for (int l = 0; l < lanes; ++l) {
            float sum = 0;
            for (int c = 0; c < kChains; ++c) sum += v[c][l];
            y[base + l] = sum;
          }
        }
      })
      // kernels/fma_peak/fma_peak.comp: one element per thread; a, b and iters are push
      // constants so the shader compiler cannot fold the chains.
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        const std::uint32_t groups = std::clamp((n + wg - 1) / wg, 1u, 65535u);
        return VulkanPlan{{Dispatch{"fma_peak/fma_peak",
                                    {"x", "y"},
                                    {wg},
                                    {n, static_cast<std::uint32_t>(p["iters"]),
                                     std::bit_cast<std::uint32_t>(kA), std::bit_cast<std::uint32_t>(kB)},
                                    {groups, 1, 1},
                                    "fma"}}};
      });
}
