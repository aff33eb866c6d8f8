#version 450
#extension GL_EXT_control_flow_attributes : enable
// copy: b = a over n floats, as vec4 loads and stores. Each thread moves ELEMENTS_PER_THREAD
// vec4s per tile (all loads issued before the stores, so several are in flight), workgroups
// stride over the tiles. Buffers are padded to whole vec4s; the last n % 4 floats are copied
// one by one.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ELEMENTS_PER_THREAD = 4;

layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer B { vec4 b[]; };
layout(push_constant) uniform Push { uint n; };  // floats

void main() {
  const uint wg = gl_WorkGroupSize.x;
  const uint n4 = n / 4;
  const uint tile = wg * ELEMENTS_PER_THREAD;
  const uint tiles = (n4 + tile - 1) / tile;
  for (uint t = gl_WorkGroupID.x; t < tiles; t += gl_NumWorkGroups.x) {
    const uint first = t * tile + gl_LocalInvocationID.x;
    vec4 v[ELEMENTS_PER_THREAD];
    [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) {
      const uint i = first + e * wg;
      if (i < n4) v[e] = a[i];
    }
    [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) {
      const uint i = first + e * wg;
      if (i < n4) b[i] = v[e];
    }
  }
  if (gl_GlobalInvocationID.x == 0) {
    for (uint k = n4 * 4; k < n; ++k) b[k / 4][k % 4] = a[k / 4][k % 4];
  }
}
