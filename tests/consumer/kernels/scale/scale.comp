#version 450
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = 2.0 * x[i];
}
