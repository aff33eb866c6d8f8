// y = softmax(x) per row, numerically stable: the row's max is subtracted before exp. One row
// per workgroup, vec4 loads; the row is read three times (max, sum, write), the second and
// third reads from cache.
#include "workgroup_reduce.glsl"

layout(push_constant) uniform Shape { uint rows, cols; } s;

layout(std430, binding = 0) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 1) writeonly buffer Output { vec4 y[]; };

void main() {
  const uint row = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (row >= s.rows) return;  // uniform per workgroup
  const uint n = s.cols / 4, base = row * n;
  float m = -uintBitsToFloat(0x7f800000u);
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x) {
    const vec4 v = x[base + i];
    m = max(m, max(max(v.x, v.y), max(v.z, v.w)));
  }
  m = workgroup_max(m);
  float sum = 0.0;
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x)
    sum += dot(exp(x[base + i] - m), vec4(1.0));
  const float inv = 1.0 / workgroup_sum(sum);
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x)
    y[base + i] = exp(x[base + i] - m) * inv;
}
