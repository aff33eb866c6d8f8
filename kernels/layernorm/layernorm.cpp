// layernorm: y = (x - mean) / sqrt(var + eps) * g + b per row (GPT-style normalisation).
// Memory-bound: x read once, g and b once, y written once.
#include <bit>
#include <cmath>

#include "kernels/common/row_plan.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {
constexpr float kEps = 1e-5f;
}

PERFGATE_KERNEL(layernorm) {
  return row_kernel("layernorm",
                    "y = (x - mean) / sqrt(var + 1e-5) * g + b per row of a rows x cols float32 matrix")
      .buffers([](const Params& p) {
        const auto rows = std::size_t(p["rows"]), cols = std::size_t(p["cols"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, rows * cols, BufferRole::input},
                                       {"g", ElementType::f32, cols, BufferRole::input},
                                       {"b", ElementType::f32, cols, BufferRole::input},
                                       {"y", ElementType::f32, rows * cols, BufferRole::output}};
      })
      // Per element: sum (1), centre and square-accumulate (3), centre, scale, gain, bias (4).
      .cost([](const Params& p) {
        const double n = double(p["rows"] * p["cols"]);
        return Cost{4 * n + 8 * double(p["cols"]), 4 * n, 8 * n};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            const auto rows = p["rows"], cols = p["cols"];
            const float* x = in.get<float>("x").data();
            const float* g = in.get<float>("g").data();
            const float* b = in.get<float>("b").data();
            std::vector<double> y(std::size_t(rows * cols));
            for (std::int64_t i = 0; i < rows; ++i) {
              const float* xr = x + i * cols;
              double mean = 0, var = 0;
              for (std::int64_t j = 0; j < cols; ++j) mean += xr[j];
              mean /= double(cols);
              for (std::int64_t j = 0; j < cols; ++j) var += (xr[j] - mean) * (xr[j] - mean);
              const double scale = 1 / std::sqrt(var / double(cols) + kEps);
              for (std::int64_t j = 0; j < cols; ++j)
                y[std::size_t(i * cols + j)] = (xr[j] - mean) * scale * g[j] + b[j];
            }
            return expect("y", std::move(y));
          },
          1e-5,
          "two float32 passes: the mean's rounding (~eps/2 * sqrt(cols) of the row's scale) "
          "shifts every centred value alike, the sum of squares rounds like a random walk "
          "(~4e-6 at 4096, halved by the square root), then a few ulp from inversesqrt and the "
          "products; 1e-5 bounds them. Two passes, not E[x^2] - mean^2, so no cancellation")
      .cpu([](const Params& p, Buffers& buf) {
        const auto rows = p["rows"], cols = p["cols"];
        const float* __restrict x = buf.get<float>("x").data();
        const float* __restrict g = buf.get<float>("g").data();
        const float* __restrict b = buf.get<float>("b").data();
        float* __restrict y = buf.get<float>("y").data();
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < rows; ++i) {
          const float* xr = x + i * cols;
          float* yr = y + i * cols;
          float sum = 0, squares = 0;
#pragma omp simd reduction(+ : sum)
          for (std::int64_t j = 0; j < cols; ++j) sum += xr[j];
          const float mean = sum / float(cols);
#pragma omp simd reduction(+ : squares)
          for (std::int64_t j = 0; j < cols; ++j) squares += (xr[j] - mean) * (xr[j] - mean);
          const float scale = 1.0f / std::sqrt(squares / float(cols) + kEps);
#pragma omp simd
          for (std::int64_t j = 0; j < cols; ++j) yr[j] = (xr[j] - mean) * scale * g[j] + b[j];
        }
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        return VulkanPlan{{row_dispatch(
            "layernorm/layernorm", limits, p["wg"], items_per_thread(p["cols"] / 4, p["wg"], "layernorm"),
            p["rows"],
            {std::uint32_t(p["rows"]), std::uint32_t(p["cols"]), std::bit_cast<std::uint32_t>(kEps)},
            {"x", "g", "b", "y"}, "layernorm")}};
      });
}
