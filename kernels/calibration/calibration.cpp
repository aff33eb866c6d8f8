// The reference workloads of calibrated measurement (sampling.calibrate, measure/calibration.h):
// a case is measured in rounds interleaved with one of these, at the same moment, and judged on
// its time relative to theirs, so that what slows the whole machine (a busy neighbour, a slow
// period of a shared VM) cancels. Their code belongs to no gated kernel, so a change to a gated
// kernel never moves its own reference. Never in the default suite: they are not gated.
#include <algorithm>
#include <cmath>

#include "perfgate/registry.h"

using namespace perfgate;

namespace {

constexpr float kScale = 0.5f, kOffset = 1.0f;         // stream: b = a * 0.5 + 1
constexpr float kDecay = 0.9990234375f, kDrift = 0.25f;  // fma: x = x * decay + drift, exact in f32

}  // namespace

// Memory-bound reference: streams n floats in and n out, sized like the case it calibrates.
PERFGATE_KERNEL(calibration_stream) {
  return KernelDef("calibration_stream")
      .describe("reference of calibrated measurement: b = a * 0.5 + 1 over n floats (memory-bound)")
      .axis("n", {1 << 20})
      .axis("wg", {256}, {Backend::vulkan})
      .in_default_suite(false)
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, n, BufferRole::input},
                                       {"b", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4 * n, 4 * n, 2 * n};
      })
      .reference(
          [](const Params&, const Buffers& in) {
            auto a = in.get<float>("a");
            std::vector<double> b(a.size());
            for (std::size_t i = 0; i < a.size(); ++i) b[i] = double(a[i]) * kScale + kOffset;
            return expect("b", std::move(b));
          },
          2e-7, "at most two roundings (multiply, add) per element")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict a = buf.get<float>("a").data();
        float* __restrict b = buf.get<float>("b").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
#pragma omp parallel for simd schedule(static)
        for (std::int64_t i = 0; i < n; ++i) b[i] = a[i] * kScale + kOffset;
      })
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        const std::uint32_t groups = std::clamp((n / 4 + wg - 1) / wg, 1u, 65535u);
        return VulkanPlan{{Dispatch{"calibration/stream", {"a", "b"}, {wg}, {n}, {groups, 1, 1}, "stream"}}};
      });
}

// Compute-bound reference: `iters` dependent multiply-adds on each of n floats held in registers.
PERFGATE_KERNEL(calibration_fma) {
  return KernelDef("calibration_fma")
      .describe("reference of calibrated measurement: iters multiply-adds on each of n floats (compute-bound)")
      .axis("n", {1 << 16})
      .axis("iters", {512})
      .axis("wg", {256}, {Backend::vulkan})
      .in_default_suite(false)
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4 * n, 4 * n, 2 * n * static_cast<double>(p["iters"])};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            auto x = in.get<float>("x");
            std::vector<double> y(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) {
              double v = x[i];
              for (std::int64_t k = 0; k < p["iters"]; ++k) v = v * kDecay + kDrift;
              y[i] = v;
            }
            return expect("y", std::move(y));
          },
          1e-5, "iters roundings of a contracting multiply-add (factor < 1), errors do not grow")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict x = buf.get<float>("x").data();
        float* __restrict y = buf.get<float>("y").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
        const auto iters = p["iters"];
#pragma omp parallel for schedule(static)
        for (std::int64_t block = 0; block < n; block += 64) {
          float v[64];
          const std::int64_t len = std::min<std::int64_t>(64, n - block);
          for (std::int64_t i = 0; i < len; ++i) v[i] = x[block + i];
          for (std::int64_t k = 0; k < iters; ++k)
#pragma omp simd
            for (std::int64_t i = 0; i < 64; ++i) v[i] = std::fma(v[i], kDecay, kDrift);
          for (std::int64_t i = 0; i < len; ++i) y[block + i] = v[i];
        }
      })
      .vulkan([](const Params& p, const DeviceLimits& d) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        const auto wg =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p["wg"], d.max_workgroup_invocations));
        return VulkanPlan{{Dispatch{"calibration/fma",
                                    {"x", "y"},
                                    {wg},
                                    {n, static_cast<std::uint32_t>(p["iters"])},
                                    {std::clamp((n + wg - 1) / wg, 1u, 65535u), 1, 1},
                                    "fma"}}};
      });
}
