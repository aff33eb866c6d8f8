// y = (x - mean) / sqrt(var + eps) * g + b per row, the variance from a second pass over the
// centred row (no E[x^2] - mean^2 cancellation). One row per workgroup, vec4 loads; the second
// and third reads of the row come from cache.
#include "../softmax/workgroup_reduce.glsl"

layout(push_constant) uniform Shape { uint rows, cols; float eps; } s;

layout(std430, binding = 0) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Gain { vec4 g[]; };
layout(std430, binding = 2) readonly buffer Bias { vec4 b[]; };
layout(std430, binding = 3) writeonly buffer Output { vec4 y[]; };

void main() {
  const uint row = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (row >= s.rows) return;  // uniform per workgroup
  const uint n = s.cols / 4, base = row * n;
  float sum = 0.0;
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x)
    sum += dot(x[base + i], vec4(1.0));
  const float mean = workgroup_sum(sum) / float(s.cols);
  float squares = 0.0;
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x) {
    const vec4 d = x[base + i] - mean;
    squares += dot(d, d);
  }
  const float scale = inversesqrt(workgroup_sum(squares) / float(s.cols) + s.eps);
  for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x)
    y[base + i] = (x[base + i] - mean) * scale * g[i] + b[i];
}
