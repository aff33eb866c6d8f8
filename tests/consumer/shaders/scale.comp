#version 450
// One source, several shaders: each VARIANT sets FACTOR; ELEMENTS_PER_THREAD comes from the
// DEFINES every shader gets, scaled() from an INCLUDE_DIRS folder.
#include "scale_body.glsl"
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
  for (uint k = 0; k < ELEMENTS_PER_THREAD; ++k) {
    uint i = gl_GlobalInvocationID.x * ELEMENTS_PER_THREAD + k;
    if (i < n) y[i] = scaled(x[i]);
  }
}
