// y = scale x + w[64 + i] + coeffs[i % 27]: a kernel whose Vulkan plan binds two descriptor sets,
// a buffer at an offset, and its push constants from a C++ struct laid out as the shader's block.
#include "blend.h"

using namespace perfgate;

namespace blend {

KernelDef definition(std::string name) {
  return KernelDef(std::move(name))
      .axis("n", {1 << 16})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"w", ElementType::f32, n + kWeightSkip, BufferRole::input},
                                       {"y", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{8 * n, 4 * n, 3 * n};
      })
      .reference(
          [](const Params&, const Buffers& b) {
            auto x = b.get<float>("x");
            auto w = b.get<float>("w");
            std::vector<double> y(x.size());
            for (std::size_t i = 0; i < y.size(); ++i)
              y[i] = double(kScale) * x[i] + w[kWeightSkip + i] + double(coefficient(i % 27));
            return expect("y", std::move(y));
          },
          1e-6, "two float32 roundings (or one fused) per element");
}

Push push_block(const Params& p) {
  Push block{static_cast<std::uint32_t>(p["n"]), kScale, {}};
  for (std::size_t k = 0; k < 27; ++k) block.coeffs[k] = coefficient(k);
  return block;
}

Dispatch dispatch(const Params& p) {
  const Push block = push_block(p);
  Dispatch d;
  d.shader = "blend/blend";
  d.bindings = {"x"};  // set 0
  d.bound = {{.set = 1, .binding = 0, .buffer = "y"},
             {.set = 1, .binding = 1, .buffer = "w", .offset_bytes = kWeightSkip * sizeof(float)}};
  d.specialization = {64};
  d.push(block);
  d.groups = {(block.n + 63) / 64, 1, 1};
  return d;
}

}  // namespace blend

PERFGATE_KERNEL(blend) {
  return blend::definition("blend")
      .describe("y = scale x + w[64 + i] + coeffs[i % 27], push constants from a 116-byte struct")
      .cpu([](const Params&, Buffers& b) {
        auto x = b.get<float>("x");
        auto w = b.get<float>("w");
        auto y = b.get<float>("y");
        for (std::size_t i = 0; i < y.size(); ++i)
          y[i] = blend::kScale * x[i] + w[blend::kWeightSkip + i] + blend::coefficient(i % 27);
      })
      .vulkan([](const Params& p, const DeviceLimits&) { return VulkanPlan{{blend::dispatch(p)}}; });
}
