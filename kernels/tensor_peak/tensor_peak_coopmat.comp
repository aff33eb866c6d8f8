#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : enable
// tensor_peak on tensor cores: each subgroup runs CHAINS independent 16x16x16 chains
// C = A_j * B + C for `iters` steps in registers (enough in flight to cover the multiply-add
// latency) and stores its CHAINS output tiles once.
layout(local_size_x_id = 0) in;

const uint CHAINS = 8;  // kChains of tensor_peak.cpp

layout(push_constant) uniform Push { uint tiles, iters; };
layout(std430, binding = 0) readonly buffer MatA { float16_t a[]; };
layout(std430, binding = 1) readonly buffer MatB { float16_t b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

void main() {
  const uint first = (gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID) * CHAINS;
  if (first >= tiles) return;  // whole subgroups: tiles is a multiple of CHAINS
  fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fa[CHAINS];
  fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fb;
  fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[CHAINS];
  coopMatLoadNV(fb, b, 0, 16, false);
  [[unroll]] for (uint j = 0; j < CHAINS; ++j) {
    coopMatLoadNV(fa[j], a, j * 256, 16, false);
    acc[j] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
  }
  for (uint it = 0; it < iters; ++it) {
    [[unroll]] for (uint j = 0; j < CHAINS; ++j) acc[j] = coopMatMulAddNV(fa[j], fb, acc[j]);
  }
  [[unroll]] for (uint j = 0; j < CHAINS; ++j) coopMatStoreNV(acc[j], c, (first + j) * 256, 16, false);
}
