#version 450
// y = W x (see q4_0_q8_matvec.cpp) with a workgroup per row and a shared-memory reduction, for
// devices without subgroup arithmetic or packed dot products: the dot products unpacked.
// The workgroup stages the row's words in shared memory (q4_0_row_words.glsl), then thread t
// takes quant word t % 4 of block t / 4, as in q4_0_matvec.glsl.
#extension GL_GOOGLE_include_directive : require
#include "kernels/common/workgroup_reduce.glsl"
#include "kernels/common/row_prologue.glsl"

layout(constant_id = 1) const uint ITEMS = 4;        // words per thread: ceil(row words / wg)
layout(constant_id = 2) const uint ROW_WORDS = 576;  // 18 * k / 32 / 4

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Quants { uint xq[]; };  // 4 int8 per word
layout(std430, binding = 2) readonly buffer Scales { float xd[]; };  // one per block
layout(std430, binding = 3) writeonly buffer Output { float y[]; };

#include "kernels/common/q4_0_row_words.glsl"

// The 4 products of a word of 4 unsigned bytes (nibbles) and a word of 4 signed bytes.
int dot4(uint nibbles, uint x) {
  const ivec4 a = ivec4((uvec4(nibbles) >> uvec4(0, 8, 16, 24)) & 0xffu);
  const ivec4 b = ivec4(uvec4(x) << uvec4(24, 16, 8, 0)) >> 24;  // sign-extended
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

void main() {
  ROW_PROLOGUE(row, s.m);
  const uint blocks = s.k / 32, base = row * ROW_WORDS, lid = gl_LocalInvocationID.x;
  stage_row(base);
  float sum = 0.0;
  for (uint t = lid; t < blocks * 4; t += gl_WorkGroupSize.x) {
    const uint b = t / 4, i = t % 4;
    const float d = unpackHalf2x16(word_at(18 * b)).x;  // the scale in the low half
    const uint q = word_at(18 * b + 2 + 4 * i), xa = xq[8 * b + i], xb = xq[8 * b + 4 + i];
    const int dot = dot4(q & 0x0f0f0f0fu, xa) + dot4((q >> 4) & 0x0f0f0f0fu, xb) -
                    8 * (dot4(0x01010101u, xa) + dot4(0x01010101u, xb));
    sum += d * xd[b] * float(dot);
  }
  sum = workgroup_sum(sum);
  if (lid == 0) y[row] = sum;
}
