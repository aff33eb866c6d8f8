// rmsnorm: y = x / sqrt(mean(x^2) + eps) * g per row (LLaMA-style normalisation).
// Memory-bound: x read once, g once, y written once.
#include <bit>
#include <cmath>

#include "kernels/common/row_plan.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {
constexpr float kEps = 1e-5f;
}

PERFGATE_KERNEL(rmsnorm) {
  return row_kernel("rmsnorm", "y = x / sqrt(mean(x^2) + 1e-5) * g per row of a rows x cols float32 matrix")
      .buffers([](const Params& p) {
        const auto rows = std::size_t(p["rows"]), cols = std::size_t(p["cols"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, rows * cols, BufferRole::input},
                                       {"g", ElementType::f32, cols, BufferRole::input},
                                       {"y", ElementType::f32, rows * cols, BufferRole::output}};
      })
      // Per element: square-accumulate (2), scale, gain.
      .cost([](const Params& p) {
        const double n = double(p["rows"] * p["cols"]);
        return Cost{4 * n + 4 * double(p["cols"]), 4 * n, 4 * n};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            const auto rows = p["rows"], cols = p["cols"];
            const float* x = in.get<float>("x").data();
            const float* g = in.get<float>("g").data();
            std::vector<double> y(std::size_t(rows * cols));
            for (std::int64_t i = 0; i < rows; ++i) {
              double sum = 0;
              for (std::int64_t j = 0; j < cols; ++j) sum += double(x[i * cols + j]) * x[i * cols + j];
              const double scale = 1 / std::sqrt(sum / double(cols) + kEps);
              for (std::int64_t j = 0; j < cols; ++j)
                y[std::size_t(i * cols + j)] = x[i * cols + j] * scale * g[j];
            }
            return expect("y", std::move(y));
          },
          1e-5,
          "the float32 sum of cols positive squares rounds like a random walk, ~eps/2 * "
          "sqrt(cols) = 4e-6 at 4096, halved by the square root; inversesqrt and the two "
          "products add a few ulp (~4e-7); 1e-5 bounds both")
      .cpu([](const Params& p, Buffers& buf) {
        const auto rows = p["rows"], cols = p["cols"];
        const float* __restrict x = buf.get<float>("x").data();
        const float* __restrict g = buf.get<float>("g").data();
        float* __restrict y = buf.get<float>("y").data();
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < rows; ++i) {
          const float* xr = x + i * cols;
          float* yr = y + i * cols;
          float sum = 0;
#pragma omp simd reduction(+ : sum)
          for (std::int64_t j = 0; j < cols; ++j) sum += xr[j] * xr[j];
          const float scale = 1.0f / std::sqrt(sum / float(cols) + kEps);
#pragma omp simd
          for (std::int64_t j = 0; j < cols; ++j) yr[j] = xr[j] * scale * g[j];
        }
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        return VulkanPlan{{row_dispatch(
            "rmsnorm/rmsnorm", limits, p["wg"], items_per_thread(p["cols"] / 4, p["wg"], "rmsnorm"),
            p["rows"],
            {std::uint32_t(p["rows"]), std::uint32_t(p["cols"]), std::bit_cast<std::uint32_t>(kEps)},
            {"x", "g", "y"}, "rmsnorm")}};
      });
}
