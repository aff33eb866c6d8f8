// softmax: y = exp(x - max) / sum(exp(x - max)) per row, the attention-probability and
// logits normalisation of every transformer. Memory-bound: one read and one write per element.
#include "kernels/common/row_plan.h"
#include "kernels/common/softmax_cpu.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

PERFGATE_KERNEL(softmax) {
  return row_kernel("softmax", "row-wise numerically stable softmax of a rows x cols float32 matrix")
      .buffers([](const Params& p) {
        const auto n = std::size_t(p["rows"] * p["cols"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::f32, n, BufferRole::output}};
      })
      // Per element: max, subtract, exp (counted as one), add, multiply.
      .cost([](const Params& p) {
        const double n = double(p["rows"] * p["cols"]);
        return Cost{4 * n, 4 * n, 5 * n};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            const auto rows = p["rows"], cols = p["cols"];
            const float* x = in.get<float>("x").data();
            std::vector<double> y(std::size_t(rows * cols));
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < rows; ++i)
              softmax_reference_row(x + i * cols, y.data() + i * cols, cols);
            return expect("y", std::move(y));
          },
          1e-5,
          "x - max is exact, float32 exp is good to a few ulp (Vulkan allows 3 + 2|x| ulp: 7 "
          "ulp = 8e-7 for |x| <= 2), the float32 row sum of positive terms rounds like a "
          "random walk, ~eps/2 * sqrt(cols) = 4e-6 at 4096; 1e-5 bounds both")
      .cpu([](const Params& p, Buffers& buf) {
        softmax_rows(buf.get<float>("x").data(), buf.get<float>("y").data(), p["rows"], p["cols"]);
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        return VulkanPlan{{row_dispatch(
            "softmax/softmax", limits, p["wg"], items_per_thread(p["cols"] / 4, p["wg"], "softmax"),
            p["rows"], {std::uint32_t(p["rows"]), std::uint32_t(p["cols"])}, {"x", "y"}, "softmax")}};
      });
}
