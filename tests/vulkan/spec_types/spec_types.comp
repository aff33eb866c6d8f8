#version 450
// Specialization constants of every type a dispatch can give, for the tests of typed constants
// (tests/vulkan/spec_constants_test.cpp): y[i] = (negate ? -1 : 1) * scale * (i + offset) for
// i < count, and a 64-bit constant no 32-bit value may set.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int offset = 0;
layout(constant_id = 2) const float scale = 1.0;
layout(constant_id = 3) const bool negate = false;
layout(constant_id = 4) const uint count = 1u;
layout(constant_id = 5) const int64_t wide = 0;
layout(std430, binding = 0) writeonly buffer Out { float y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  float v = scale * float(int(i) + offset) + float(wide);
  y[i] = negate ? -v : v;
}
