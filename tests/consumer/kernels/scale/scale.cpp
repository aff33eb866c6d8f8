// y = factor x: a kernel whose Vulkan shaders are variants of one source (tests/consumer/shaders),
// built with defines and an include folder through perfgate_add_executable.
#include "perfgate/registry.h"

using namespace perfgate;

namespace {
constexpr std::uint32_t kElementsPerThread = 2;  // ELEMENTS_PER_THREAD in CMakeLists.txt
}

PERFGATE_KERNEL(scale) {
  return KernelDef("scale")
      .describe("y = factor x over n floats, factor 2 or 3 (one shader variant each)")
      .axis("n", {1 << 16})
      .axis("factor", {2, 3})
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
          [](const Params& p, const Buffers& b) {
            auto x = b.get<float>("x");
            std::vector<double> y(x.begin(), x.end());
            for (double& v : y) v *= static_cast<double>(p["factor"]);
            return expect("y", std::move(y));
          },
          1e-7, "3 x rounds once in float32 (2 x is exact)")
      .cpu([](const Params& p, Buffers& b) {
        auto x = b.get<float>("x");
        auto y = b.get<float>("y");
        const auto factor = static_cast<float>(p["factor"]);
        for (std::int64_t i = 0; i < p["n"]; ++i) y[i] = factor * x[i];
      })
      .vulkan([](const Params& p, const DeviceLimits&) {
        const auto n = static_cast<std::uint32_t>(p["n"]);
        Dispatch d;
        d.shader = "scale/scale_x" + std::to_string(p["factor"]);
        d.bindings = {"x", "y"};
        d.specialization = {64};
        d.push_constants = {n};
        d.groups = {(n + 64 * kElementsPerThread - 1) / (64 * kElementsPerThread), 1, 1};
        return VulkanPlan{{d}};
      });
}
