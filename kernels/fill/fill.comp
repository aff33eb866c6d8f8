#version 450
#extension GL_EXT_control_flow_attributes : enable
// fill: b = value over n floats, as vec4 stores; each thread stores ELEMENTS_PER_THREAD vec4s
// per tile and workgroups stride over the tiles (the layout of copy.comp without the loads).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ELEMENTS_PER_THREAD = 4;

layout(set = 0, binding = 0) writeonly buffer B { vec4 b[]; };
layout(push_constant) uniform Push {
  uint n;  // floats
  float value;
};

void main() {
  const uint wg = gl_WorkGroupSize.x;
  const uint n4 = n / 4;
  const uint tile = wg * ELEMENTS_PER_THREAD;
  const uint tiles = (n4 + tile - 1) / tile;
  const vec4 v = vec4(value);
  for (uint t = gl_WorkGroupID.x; t < tiles; t += gl_NumWorkGroups.x) {
    const uint first = t * tile + gl_LocalInvocationID.x;
    [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) {
      const uint i = first + e * wg;
      if (i < n4) b[i] = v;
    }
  }
  if (gl_GlobalInvocationID.x == 0) {
    for (uint k = n4 * 4; k < n; ++k) b[k / 4][k % 4] = value;
  }
}
