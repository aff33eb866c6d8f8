#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : enable
// matmul_f16 on tensor cores: a T x T tile of C per workgroup, its subgroups in an SM x SN grid,
// each accumulating RM x RN 16x16 float32 fragments over k, 16 at a time, from f16 fragments
// of A and B loaded straight from global memory (the L1 serves the subgroups sharing a row or
// column). Sizes are multiples of T (M, N) and 32 (K): the plan checks.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint T = 128;
layout(constant_id = 2) const uint SM = 4;
layout(constant_id = 3) const uint SN = 2;
const uint RM = T / 16 / SM;
const uint RN = T / 16 / SN;

layout(push_constant) uniform Shape { uint M, N, K; };
layout(std430, binding = 0) readonly buffer MatA { float16_t a[]; };
layout(std430, binding = 1) readonly buffer MatB { float16_t b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

void main() {
  const uint sg = gl_SubgroupID;
  const uint row0 = gl_WorkGroupID.y * T + (sg % SM) * (T / SM);
  const uint col0 = gl_WorkGroupID.x * T + (sg / SM) * (T / SN);
  fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[RM * RN];
  [[unroll]] for (uint i = 0; i < RM * RN; ++i) acc[i] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
  for (uint k = 0; k < K; k += 16) {
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fa[RM];
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fb[RN];
    [[unroll]] for (uint i = 0; i < RM; ++i) coopMatLoadNV(fa[i], a, (row0 + 16 * i) * K + k, K, false);
    [[unroll]] for (uint j = 0; j < RN; ++j) coopMatLoadNV(fb[j], b, k * N + col0 + 16 * j, N, false);
    [[unroll]] for (uint i = 0; i < RM; ++i) {
      [[unroll]] for (uint j = 0; j < RN; ++j) acc[i * RN + j] = coopMatMulAddNV(fa[i], fb[j], acc[i * RN + j]);
    }
  }
  [[unroll]] for (uint i = 0; i < RM; ++i) {
    [[unroll]] for (uint j = 0; j < RN; ++j)
      coopMatStoreNV(acc[i * RN + j], c, (row0 + 16 * i) * N + col0 + 16 * j, N, false);
  }
}
