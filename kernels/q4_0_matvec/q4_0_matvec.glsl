// y = W x with W in GGML Q4_0 blocks (see q4_0.h), x and y float32, for devices without
// subgroup arithmetic (q4_0_matvec_rows.comp otherwise). One row per workgroup.
// The workgroup stages the row's words in shared memory (q4_0_row_words.glsl), then thread t
// takes quant word t % 4 of block t / 4: elements 4i..4i+3 (low nibbles) and 16+4i..19+4i
// (high), so the x loads of a subgroup are contiguous too.
#include "kernels/common/workgroup_reduce.glsl"
#include "kernels/common/row_prologue.glsl"
#include "q4_0_decode.glsl"

layout(constant_id = 1) const uint ITEMS = 4;        // words per thread: ceil(row words / wg)
layout(constant_id = 2) const uint ROW_WORDS = 576;  // 18 * k / 32 / 4

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

#include "kernels/common/q4_0_row_words.glsl"

void main() {
  ROW_PROLOGUE(row, s.m);
  const uint blocks = s.k / 32, base = row * ROW_WORDS, lid = gl_LocalInvocationID.x;
  stage_row(base);
  float sum = 0.0;
  for (uint t = lid; t < blocks * 4; t += gl_WorkGroupSize.x) {
    const uint b = t / 4, i = t % 4;
    const uint d_bits = word_at(18 * b);  // the scale in the low half
    const uint q = word_at(18 * b + 2 + 4 * i);
    sum += unpackHalf2x16(d_bits).x * quant_word_dot(q, x[8 * b + i], x[8 * b + 4 + i]);
  }
  sum = workgroup_sum(sum);
  if (lid == 0) y[row] = sum;
}
