#version 450
#extension GL_EXT_control_flow_attributes : enable
// triad: a = b + s * c over n floats (STREAM), as vec4 loads and stores; s is a push constant.
// Same tiling as copy: ELEMENTS_PER_THREAD vec4s of b and c loaded before any store, workgroups
// stride over tiles, the last n % 4 floats done one by one.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ELEMENTS_PER_THREAD = 4;

layout(set = 0, binding = 0) writeonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { vec4 c[]; };
layout(push_constant) uniform Push {
  uint n;  // floats
  float s;
};

void main() {
  const uint wg = gl_WorkGroupSize.x;
  const uint n4 = n / 4;
  const uint tile = wg * ELEMENTS_PER_THREAD;
  const uint tiles = (n4 + tile - 1) / tile;
  for (uint t = gl_WorkGroupID.x; t < tiles; t += gl_NumWorkGroups.x) {
    const uint first = t * tile + gl_LocalInvocationID.x;
    vec4 vb[ELEMENTS_PER_THREAD];
    vec4 vc[ELEMENTS_PER_THREAD];
    [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) {
      const uint i = first + e * wg;
      if (i < n4) {
        vb[e] = b[i];
        vc[e] = c[i];
      }
    }
    [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) {
      const uint i = first + e * wg;
      if (i < n4) a[i] = vb[e] + s * vc[e];
    }
  }
  if (gl_GlobalInvocationID.x == 0) {
    for (uint k = n4 * 4; k < n; ++k) a[k / 4][k % 4] = b[k / 4][k % 4] + s * c[k / 4][k % 4];
  }
}
