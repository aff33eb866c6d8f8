// y = W x with W in GGML Q4_0 blocks (see q4_0.h), x and y float32. One row per workgroup.
// The row's blocks are 18 bytes apart, so per-thread block loads would be strided and narrow:
// instead the workgroup copies the row's words into shared memory with coalesced loads (ITEMS
// per thread, all in flight together), then each thread decodes two blocks at a time: 36
// bytes = 9 words, so every pair starts word-aligned (k is a multiple of 64).
#include "../softmax/workgroup_reduce.glsl"

layout(constant_id = 1) const uint ITEMS = 4;        // words per thread: ceil(row words / wg)
layout(constant_id = 2) const uint ROW_WORDS = 576;  // 9 * k / 64

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

shared uint row_words[ROW_WORDS];

// 16 quant bytes in 4 words; elements j (low nibbles) and j + 16 (high nibbles) of a block
// whose 32 inputs start at x[xv] (in vec4s).
float block_dot(uvec4 q, uint xv) {
  float sum = 0.0;
  for (uint i = 0; i < 4; ++i) {
    const uint b = q[i];
    const vec4 lo = vec4(uvec4(b, b >> 8, b >> 16, b >> 24) & 0x0fu) - 8.0;
    const vec4 hi = vec4(uvec4(b >> 4, b >> 12, b >> 20, b >> 28) & 0x0fu) - 8.0;
    sum += dot(lo, x[xv + i]) + dot(hi, x[xv + 4 + i]);
  }
  return sum;
}

void main() {
  const uint row = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (row >= s.m) return;  // uniform per workgroup
  const uint pairs = s.k / 64, base = row * ROW_WORDS, lid = gl_LocalInvocationID.x;
  uint staged[ITEMS];
  for (uint j = 0; j < ITEMS; ++j) {
    const uint i = lid + j * gl_WorkGroupSize.x;
    staged[j] = i < ROW_WORDS ? w[base + i] : 0u;
  }
  for (uint j = 0; j < ITEMS; ++j) {
    const uint i = lid + j * gl_WorkGroupSize.x;
    if (i < ROW_WORDS) row_words[i] = staged[j];
  }
  barrier();
  float sum = 0.0;
  for (uint p = lid; p < pairs; p += gl_WorkGroupSize.x) {
    const uint o = p * 9;
    const uint w0 = row_words[o], w1 = row_words[o + 1], w2 = row_words[o + 2],
               w3 = row_words[o + 3], w4 = row_words[o + 4];
    // Block 0: d in w0's low half, quants from w0's high half to w4's low half.
    const uvec4 q0 = uvec4((w0 >> 16) | (w1 << 16), (w1 >> 16) | (w2 << 16),
                           (w2 >> 16) | (w3 << 16), (w3 >> 16) | (w4 << 16));
    // Block 1: d in w4's high half, quants in w5..w8.
    const uvec4 q1 = uvec4(row_words[o + 5], row_words[o + 6], row_words[o + 7], row_words[o + 8]);
    sum += unpackHalf2x16(w0).x * block_dot(q0, p * 16) +
           unpackHalf2x16(w4).y * block_dot(q1, p * 16 + 8);
  }
  sum = workgroup_sum(sum);
  if (lid == 0) y[row] = sum;
}
