// y = x rounded to bfloat16 (to nearest even): an output perfgate compares as its bf16 values.
#include "perfgate/registry.h"

using namespace perfgate;

PERFGATE_KERNEL(to_bf16) {
  return KernelDef("to_bf16")
      .describe("y (bf16) = x (f32) rounded to nearest even")
      .axis("n", {1 << 16})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::bf16, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4 * n, 2 * n, 0};
      })
      .reference(
          [](const Params&, const Buffers& b) {
            std::vector<double> y;
            for (float v : b.get<float>("x")) y.push_back(from_bfloat16(to_bfloat16(v)));
            return expect("y", std::move(y));
          },
          0.0, "rounding to nearest even has one right answer")
      .cpu([](const Params&, Buffers& b) {
        auto x = b.get<float>("x");
        auto y = b.get<std::uint16_t>("y");
        for (std::size_t i = 0; i < x.size(); ++i) y[i] = to_bfloat16(x[i]);
      })
      .vulkan([](const Params& p, const DeviceLimits&) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        Dispatch d;
        d.shader = "to_bf16/to_bf16";
        d.bindings = {"x", "y"};
        d.constant(0, 64u);  // local_size_x, a typed specialization constant
        d.push_constants = {n};
        d.groups = {(n + 63) / 64, 1, 1};
        return VulkanPlan{{d}};
      });
}
