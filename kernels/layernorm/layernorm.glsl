// y = (x - mean) / sqrt(var + eps) * g + b per row, the variance from a second pass over the
// centred row (no E[x^2] - mean^2 cancellation). One row per workgroup; each thread holds its
// ITEMS vec4s of the row in registers, so the row is read from memory once.
#include "kernels/common/workgroup_reduce.glsl"
#include "kernels/common/row_prologue.glsl"

layout(constant_id = 1) const uint ITEMS = 4;  // vec4s per thread: ceil(cols / 4 / wg)

layout(push_constant) uniform Shape { uint rows, cols; float eps; } s;

layout(std430, binding = 0) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Gain { vec4 g[]; };
layout(std430, binding = 2) readonly buffer Bias { vec4 b[]; };
layout(std430, binding = 3) writeonly buffer Output { vec4 y[]; };

void main() {
  ROW_PROLOGUE(row, s.rows);
  const uint n = s.cols / 4, base = row * n, lid = gl_LocalInvocationID.x;
  ROW_ITEMS(vec4, v, x, base, n, lid, vec4(0.0));
  float sum = 0.0;
  for (uint i = 0; i < ITEMS; ++i) sum += dot(v[i], vec4(1.0));
  const float mean = workgroup_sum(sum) / float(s.cols);
  float squares = 0.0;
  for (uint i = 0; i < ITEMS; ++i) {
    const uint c = lid + i * gl_WorkGroupSize.x;
    const vec4 d = c < n ? v[i] - mean : vec4(0.0);
    squares += dot(d, d);
  }
  const float scale = inversesqrt(workgroup_sum(squares) / float(s.cols) + s.eps);
  for (uint i = 0; i < ITEMS; ++i) {
    const uint c = lid + i * gl_WorkGroupSize.x;
    if (c < n) y[base + c] = (v[i] - mean) * scale * g[c] + b[c];
  }
}
