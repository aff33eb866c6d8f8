// y = 2 x: the smallest complete kernel, with a CPU and a Vulkan implementation.
#include "perfgate/registry.h"

using namespace perfgate;

PERFGATE_KERNEL(scale) {
  return KernelDef("scale")
      .describe("y = 2 x over n floats")
      .axis("n", {1 << 16})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4 * n, 4 * n, n};
      })
      .reference(
          [](const Params&, const Buffers& b) {
            auto x = b.get<float>("x");
            std::vector<double> y(x.begin(), x.end());
            for (double& v : y) v *= 2;
            return Expected{{"y", std::move(y)}};
          },
          0.0, "multiplying by 2 is exact")
      .cpu([](const Params& p, Buffers& b) {
        auto x = b.get<float>("x");
        auto y = b.get<float>("y");
        for (std::int64_t i = 0; i < p["n"]; ++i) y[i] = 2 * x[i];
      })
      .vulkan([](const Params& p, const DeviceLimits&) {
        Dispatch d;
        d.shader = "scale/scale";
        d.bindings = {"x", "y"};
        d.specialization = {64};
        d.push_constants = {static_cast<std::uint32_t>(p["n"])};
        d.groups = {static_cast<std::uint32_t>((p["n"] + 63) / 64), 1, 1};
        return VulkanPlan{{d}};
      });
}
