#pragma once
// blend's definition without its backends, and its correct Vulkan dispatch: blend.cpp adds both
// backends, blend_mistakes.cpp gets a plan wrong on purpose on the same shader.
#include <cstdint>
#include <string>

#include "perfgate/registry.h"

namespace blend {

// The shader's push-constant block (std430): 4 + 4 + 27 * 4 = 116 bytes.
struct Push {
  std::uint32_t n;
  float scale;
  float coeffs[27];
};
static_assert(sizeof(Push) == 116);

inline constexpr std::size_t kWeightSkip = 64;  // floats of w before the bound range: 256 bytes
inline constexpr float kScale = 0.5f;

inline float coefficient(std::size_t k) { return 0.125f * static_cast<float>(k); }

// Axes, buffers, cost and float64 reference of y = scale x + w[64 + i] + coeffs[i % 27].
perfgate::KernelDef definition(std::string name);
Push push_block(const perfgate::Params& p);
// Binds x at set 0, y and w (at an offset) at set 1, and pushes push_block(p).
perfgate::Dispatch dispatch(const perfgate::Params& p);

}  // namespace blend
