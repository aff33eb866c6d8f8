#version 450
// calibration_fma: iters dependent multiply-adds on each of n floats, held in a register.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Push { uint n; uint iters; };

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
    float v = x[i];
    for (uint k = 0; k < iters; ++k) v = fma(v, 0.9990234375, 0.25);
    y[i] = v;
  }
}
