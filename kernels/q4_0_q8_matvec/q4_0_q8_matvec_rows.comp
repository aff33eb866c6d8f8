#version 450
// y = W x (see q4_0_q8_matvec.cpp) with a subgroup per ROWS rows, for devices with subgroup
// arithmetic and packed 8-bit dot products. The weight words are read as in
// q4_0_matvec_rows.comp: eight lanes per pair of blocks (9 words), each word loaded once,
// shuffles joining the quant words of the first block, which sit 2 bytes off alignment. Lane j
// takes quant word j % 4 of block j / 4 of the pair: its bytes hold elements 4i..4i+3 (low
// nibbles) and 16+4i..19+4i (high), whose 8-bit activations are xq words 8 b + i and 8 b + 4 + i.
// Two dot products give sum (n - 8) xq exactly; the bias, 8 sum xq, is the same for every row.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "kernels/common/row_prologue.glsl"

// OpSDot (SPV_KHR_integer_dot_product) of two words read as 4 signed bytes; format 0 is
// PackedVectorFormat4x8Bit. GLSL has no built-in for it in the glslang this builds with.
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"],
                  capabilities = [6016, 6018, 6019], id = 4450)
int dot4x8(uint a, uint b, spirv_literal int packed_format);

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 4;  // pairs of blocks per 8 lanes per step
layout(constant_id = 2) const uint ROWS = 2;   // rows per subgroup

layout(push_constant) uniform Shape { uint m, k; } s;

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Quants { uint xq[]; };  // 4 int8 per word
layout(std430, binding = 2) readonly buffer Scales { float xd[]; };  // one per block
layout(std430, binding = 3) writeonly buffer Output { float y[]; };

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
      const uint block = 2 * (u / 8) + j / 4, at = 8 * block + j % 4;
      const uint xa = xq[at], xb = xq[at + 4];
      const int bias = 8 * (dot4x8(xa, 0x01010101u, 0) + dot4x8(xb, 0x01010101u, 0));
      const float dx = xd[block];
      for (uint r = 0; r < ROWS; ++r) {
        const uint mine = words[i][r].x;  // shuffles outside any condition: every lane takes part
        const uint down = subgroupShuffleDown(mine, 1), scale = subgroupShuffle(mine, scale_lane);
        const uint next = j == 7 ? words[i][r].y : down;
        const float d = unpackHalf2x16(j < 4 ? scale : scale >> 16).x;  // 0 where not valid
        const uint q = j < 4 ? (mine >> 16) | (next << 16) : next;
        const int dot = dot4x8(q & 0x0f0f0f0fu, xa, 0) + dot4x8((q >> 4) & 0x0f0f0f0fu, xb, 0);
        sum[r] += d * dx * float(dot - bias);
      }
    }
  }
  for (uint r = 0; r < ROWS; ++r) {
    const float total = subgroupAdd(sum[r]);
    if (subgroupElect() && row0 + r < s.m) y[row0 + r] = total;
  }
}
