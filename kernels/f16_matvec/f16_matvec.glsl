// y = W x: W m x k in fp16 (row-major), x and y float32. One row per workgroup: each thread
// takes 8 weights (one uvec4) at a time, strided over the row, then the workgroup sums.
#include "../softmax/workgroup_reduce.glsl"

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uvec4 w[]; };  // 8 halves per element
layout(std430, binding = 1) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

void main() {
  const uint row = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (row >= s.m) return;  // uniform per workgroup: barriers stay uniform
  const uint per_row = s.k / 8, base = row * per_row;
  float sum = 0.0;
  for (uint i = gl_LocalInvocationID.x; i < per_row; i += gl_WorkGroupSize.x) {
    const uvec4 q = w[base + i];
    sum += dot(vec4(unpackHalf2x16(q.x), unpackHalf2x16(q.y)), x[2 * i]) +
           dot(vec4(unpackHalf2x16(q.z), unpackHalf2x16(q.w)), x[2 * i + 1]);
  }
  sum = workgroup_sum(sum);
  if (gl_LocalInvocationID.x == 0) y[row] = sum;
}
