#version 450
// y = W x (see q4_0_matvec.glsl) with a subgroup per ROWS rows, for devices with subgroup
// arithmetic: no shared memory, no barrier, and each x load serves all ROWS rows.
//
// Two blocks are 36 bytes, 9 words, so a row of k a multiple of 64 is word-aligned pairs. Eight
// lanes take a pair: lane j loads word j, lane 7 word 8 as well, so the subgroup reads each
// word once and its loads are contiguous. Lane j decodes 8 weights: for j < 4 quant word j of
// the first block, which sits 2 bytes off alignment (the high half of its word, the low half
// of the next lane's), for j >= 4 quant word j - 4 of the second, the next lane's word. The
// scales are the low half of the pair's word 0 and the high half of its word 4.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_GOOGLE_include_directive : require
#include "q4_0_decode.glsl"
#include "kernels/common/row_prologue.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 4;  // pairs of blocks per 8 lanes per step
layout(constant_id = 2) const uint ROWS = 2;   // rows per subgroup

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

void main() {
  SUBGROUP_ROWS_PROLOGUE(row0, ROWS, s.m);
  const uint units = s.k / 8, row_words = 9 * s.k / 64, lane = gl_SubgroupInvocationID;
  const uint j = lane % 8, scale_lane = lane - j + (j < 4 ? 0 : 4);
  float sum[ROWS];
  for (uint r = 0; r < ROWS; ++r) sum[r] = 0.0;
  for (uint first = 0; first < units; first += ITEMS * gl_SubgroupSize) {
    uvec2 words[ITEMS][ROWS];  // word j of the pair, and word 8 on lane 7
    for (uint i = 0; i < ITEMS; ++i) {
      const uint u = first + lane + i * gl_SubgroupSize, pair = 9 * (u / 8);
      for (uint r = 0; r < ROWS; ++r) {
        const uint at = (row0 + r) * row_words + pair + j;
        const bool valid = u < units && row0 + r < s.m;
        words[i][r] = uvec2(valid ? w[at] : 0u, valid && j == 7 ? w[at + 1] : 0u);
      }
    }
    for (uint i = 0; i < ITEMS; ++i) {
      const uint u = min(first + lane + i * gl_SubgroupSize, units - 1);
      const uint xi = 16 * (u / 8) + (j < 4 ? j : j + 4);  // 8 * block + quant word
      const vec4 xa = x[xi], xb = x[xi + 4];
      for (uint r = 0; r < ROWS; ++r) {
        const uint mine = words[i][r].x;  // shuffles outside any condition: every lane takes part
        const uint down = subgroupShuffleDown(mine, 1), scale = subgroupShuffle(mine, scale_lane);
        const uint next = j == 7 ? words[i][r].y : down;
        const float d = unpackHalf2x16(j < 4 ? scale : scale >> 16).x;
        const uint q = j < 4 ? (mine >> 16) | (next << 16) : next;
        sum[r] += d * quant_word_dot(q, xa, xb);
      }
    }
  }
  for (uint r = 0; r < ROWS; ++r) {
    const float total = subgroupAdd(sum[r]);
    if (subgroupElect() && row0 + r < s.m) y[row0 + r] = total;
  }
}
