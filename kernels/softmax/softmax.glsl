// y = softmax(x) per row, numerically stable: the row's max is subtracted before exp. One row
// per workgroup; each thread holds its ITEMS vec4s of the row in registers (loaded at once, so
// they are all in flight together), so the row is read from memory once.
#include "kernels/common/workgroup_reduce.glsl"
#include "kernels/common/row_prologue.glsl"

layout(constant_id = 1) const uint ITEMS = 4;  // vec4s per thread: ceil(cols / 4 / wg)

layout(push_constant) uniform Shape { uint rows, cols; } s;

layout(std430, binding = 0) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 1) writeonly buffer Output { vec4 y[]; };

void main() {
  ROW_PROLOGUE(row, s.rows);
  const uint n = s.cols / 4, base = row * n, lid = gl_LocalInvocationID.x;
  const float neg_inf = -uintBitsToFloat(0x7f800000u);
  ROW_ITEMS(vec4, v, x, base, n, lid, vec4(neg_inf));
  float m = neg_inf;
  for (uint i = 0; i < ITEMS; ++i) m = max(m, max(max(v[i].x, v[i].y), max(v[i].z, v[i].w)));
  m = workgroup_max(m);
  float sum = 0.0;
  for (uint i = 0; i < ITEMS; ++i) {
    v[i] = exp(v[i] - m);  // exp(-inf) = 0 for the padding
    sum += dot(v[i], vec4(1.0));
  }
  const float inv = 1.0 / workgroup_sum(sum);
  for (uint i = 0; i < ITEMS; ++i) {
    const uint c = lid + i * gl_WorkGroupSize.x;
    if (c < n) y[base + c] = v[i] * inv;
  }
}
