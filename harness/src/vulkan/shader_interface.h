#pragma once
// What a compute shader expects from a dispatch, read from its SPIR-V by SPIRV-Cross's reflection
// (C API): the push-constant block's size and the descriptor bindings it declares. A dispatch is
// checked against it before anything is recorded, so a short push-constant range or a buffer the
// plan forgot is a clear error naming the shader and the offset or binding, not an undefined
// value or a NaN result.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "perfgate/kernel.h"

namespace perfgate::vk {

struct ShaderBinding {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  std::string name;  // the block's name in the shader, for messages ("" once stripped)
};

// A specialization constant the shader declares (`layout(constant_id = 1) const float k = 1.0;`).
struct ShaderConstant {
  std::uint32_t id = 0;  // constant_id
  std::string type;      // GLSL's name: int, uint, float, bool; or double, int64_t, float16_t, ...
};

struct ShaderInterface {
  std::uint32_t push_constant_bytes = 0;  // 0: no push-constant block
  std::string push_constant_name;
  std::vector<ShaderBinding> bindings;  // storage and uniform buffers, by set then binding
  std::vector<std::uint32_t> capabilities;  // SpvCapability values the module declares
  std::vector<ShaderConstant> constants;    // specialization constants, by constant_id
  // The workgroup size as the module states it, and for each dimension set by a specialization
  // constant its constant_id (-1: a literal).
  std::array<std::uint32_t, 3> local_size{1, 1, 1};
  std::array<std::int64_t, 3> local_size_constant{-1, -1, -1};
  // The workgroup size a dispatch runs with (Dispatch::all_constants()): its constants where they
  // set a dimension.
  std::array<std::uint32_t, 3> local_size_with(const std::vector<SpecConstant>& given) const;
  // Why SPIRV-Cross could not parse the module ("" when it could): nothing above but the
  // capabilities (read from the module's OpCapability instructions) is then known, and
  // check_dispatch checks nothing.
  std::string unreadable;
};

// Throws Error naming the shader when SPIRV-Cross fails on a module it parsed; a module it
// cannot parse at all comes back `unreadable`.
ShaderInterface reflect_shader(const std::string& shader, std::span<const std::uint32_t> words);

// Throws Error, naming the kernel, the shader and the binding, offset or constant_id, when the
// dispatch gives fewer push-constant bytes than the shader's block, leaves a binding (of any set)
// the shader declares without a buffer, gives one constant_id twice, gives a typed constant the
// shader does not declare (glslc -O drops unused ones) or declares with another type, or a word
// to a constant that is not 32 bits.
void check_dispatch(const std::string& kernel, const Dispatch& dispatch, const ShaderInterface& shader);

}  // namespace perfgate::vk
