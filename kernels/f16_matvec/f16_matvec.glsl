// y = W x: W m x k in fp16 (row-major), x and y float32, for devices without subgroup
// arithmetic (f16_matvec_rows.comp otherwise). One row per workgroup: each thread
// loads its ITEMS uvec4s (8 weights each) of the row at once, so they are all in flight
// together, then the workgroup sums.
#include "kernels/common/workgroup_reduce.glsl"
#include "kernels/common/row_prologue.glsl"

layout(constant_id = 1) const uint ITEMS = 4;  // uvec4s per thread: ceil(k / 8 / wg)

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uvec4 w[]; };  // 8 halves per element
layout(std430, binding = 1) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

void main() {
  ROW_PROLOGUE(row, s.m);
  const uint per_row = s.k / 8, base = row * per_row, lid = gl_LocalInvocationID.x;
  ROW_ITEMS(uvec4, q, w, base, per_row, lid, uvec4(0));
  float sum = 0.0;
  for (uint j = 0; j < ITEMS; ++j) {
    const uint i = min(lid + j * gl_WorkGroupSize.x, per_row - 1);  // zero weights past the end
    sum += dot(vec4(unpackHalf2x16(q[j].x), unpackHalf2x16(q[j].y)), x[2 * i]) +
           dot(vec4(unpackHalf2x16(q[j].z), unpackHalf2x16(q[j].w)), x[2 * i + 1]);
  }
  sum = workgroup_sum(sum);
  if (lid == 0) y[row] = sum;
}
