#version 450
// Shaped like a real engine's: a 116-byte push-constant block, a second descriptor set, and a
// weight buffer bound at an offset (its first 64 floats belong to someone else).
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 1, binding = 0) writeonly buffer Y { float y[]; };
layout(set = 1, binding = 1) readonly buffer W { float w[]; };
layout(push_constant) uniform Blend {
  uint n;
  float scale;
  float coeffs[27];
} p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = p.scale * x[i] + w[i] + p.coeffs[i % 27];
}
