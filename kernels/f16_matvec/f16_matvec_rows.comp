#version 450
// y = W x (see f16_matvec.glsl) with a subgroup per ROWS rows, for devices with subgroup
// arithmetic: wg / subgroup_size subgroups per workgroup. The lanes step through the rows
// ITEMS uvec4s (8 weights each) at a time, loaded together so they are in flight at once, and
// each x load serves all ROWS rows (x is 2 floats per fp16 weight: read once per row it would
// move twice the weights' bytes through the caches). One subgroupAdd per row, no barrier.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_GOOGLE_include_directive : require
#include "kernels/common/row_prologue.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 4;  // uvec4s per lane per step
layout(constant_id = 2) const uint ROWS = 2;   // rows per subgroup

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uvec4 w[]; };
layout(std430, binding = 1) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

vec4 low(uvec4 q) { return vec4(unpackHalf2x16(q.x), unpackHalf2x16(q.y)); }
vec4 high(uvec4 q) { return vec4(unpackHalf2x16(q.z), unpackHalf2x16(q.w)); }

void main() {
  SUBGROUP_ROWS_PROLOGUE(row0, ROWS, s.m);
  const uint per_row = s.k / 8, lane = gl_SubgroupInvocationID;
  float sum[ROWS];
  for (uint r = 0; r < ROWS; ++r) sum[r] = 0.0;
  for (uint first = 0; first < per_row; first += ITEMS * gl_SubgroupSize) {
    uvec4 q[ITEMS][ROWS];
    for (uint j = 0; j < ITEMS; ++j) {
      const uint i = first + lane + j * gl_SubgroupSize;
      for (uint r = 0; r < ROWS; ++r)
        q[j][r] = i < per_row && row0 + r < s.m ? w[(row0 + r) * per_row + i] : uvec4(0);
    }
    for (uint j = 0; j < ITEMS; ++j) {
      const uint i = min(first + lane + j * gl_SubgroupSize, per_row - 1);  // zero weights past the end
      const vec4 xa = x[2 * i], xb = x[2 * i + 1];
      for (uint r = 0; r < ROWS; ++r) sum[r] += dot(low(q[j][r]), xa) + dot(high(q[j][r]), xb);
    }
  }
  for (uint r = 0; r < ROWS; ++r) {
    const float total = subgroupAdd(sum[r]);
    if (subgroupElect() && row0 + r < s.m) y[row0 + r] = total;
  }
}
