// y = x / sqrt(mean(x^2) + eps) * g per row. One row per workgroup, vec4 loads; the second
// read of the row comes from cache.
#include "../softmax/workgroup_reduce.glsl"

layout(push_constant) uniform Shape { uint rows, cols; float eps; } s;

layout(std430, binding = 0) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Gain { vec4 g[]; };
layout(std430, binding = 2) writeonly buffer Output { vec4 y[]; };

void main() {
  const uint row = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (row >= s.rows) return;  // uniform per workgroup
  const uint n = s.cols / 4, base = row * n;
  float sum = 0.0;
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x) {
    const vec4 v = x[base + i];
    sum += dot(v, v);
  }
  const float scale = inversesqrt(workgroup_sum(sum) / float(s.cols) + s.eps);
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x)
    y[base + i] = x[base + i] * scale * g[i];
}
