#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : enable
// matmul_f16 on tensor cores, A and B staged through shared memory: per step of BK, the
// workgroup copies a T x BK tile of A and a BK x T tile of B with 16-byte loads (each read once
// from global memory, however many subgroups use it), then each subgroup of the SM x SN grid
// loads its fragments from shared memory. Rows are padded by 8 halves against bank conflicts.
// Sizes are multiples of T (M, N) and BK (K): the plan checks.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint T = 128;
layout(constant_id = 2) const uint SM = 4;
layout(constant_id = 3) const uint SN = 2;
const uint RM = T / 16 / SM;
const uint RN = T / 16 / SN;
const uint BK = 32;      // kTensorBK of tensor_fragments.h
const uint LDA = BK + 8;  // halves per staged row of A
const uint LDB = T + 8;   // halves per staged row of B

layout(push_constant) uniform Shape { uint M, N, K; };
layout(std430, binding = 0) readonly buffer MatA { uvec4 a[]; };  // 8 halves each
layout(std430, binding = 1) readonly buffer MatB { uvec4 b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

shared float16_t As[T * LDA];
shared float16_t Bs[BK * LDB];

void main() {
  const uint WG = gl_WorkGroupSize.x;
  const uint sg = gl_SubgroupID;
  const uint tile_row = gl_WorkGroupID.y * T, tile_col = gl_WorkGroupID.x * T;
  const uint sub_row = (sg % SM) * (T / SM), sub_col = (sg / SM) * (T / SN);
  fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[RM * RN];
  [[unroll]] for (uint i = 0; i < RM * RN; ++i) acc[i] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
  for (uint k0 = 0; k0 < K; k0 += BK) {
    for (uint v = gl_LocalInvocationID.x; v < T * (BK / 8); v += WG) {
      const uint r = v / (BK / 8), q = v % (BK / 8);
      const uvec4 w = a[((tile_row + r) * K + k0) / 8 + q];
      [[unroll]] for (uint e = 0; e < 4; ++e) {
        const f16vec2 h = unpackFloat2x16(w[e]);
        As[r * LDA + q * 8 + 2 * e] = h.x;
        As[r * LDA + q * 8 + 2 * e + 1] = h.y;
      }
    }
    for (uint v = gl_LocalInvocationID.x; v < BK * (T / 8); v += WG) {
      const uint r = v / (T / 8), q = v % (T / 8);
      const uvec4 w = b[((k0 + r) * N + tile_col) / 8 + q];
      [[unroll]] for (uint e = 0; e < 4; ++e) {
        const f16vec2 h = unpackFloat2x16(w[e]);
        Bs[r * LDB + q * 8 + 2 * e] = h.x;
        Bs[r * LDB + q * 8 + 2 * e + 1] = h.y;
      }
    }
    barrier();
    [[unroll]] for (uint kk = 0; kk < BK; kk += 16) {
      fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fa[RM];
      fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fb[RN];
      [[unroll]] for (uint i = 0; i < RM; ++i) coopMatLoadNV(fa[i], As, (sub_row + 16 * i) * LDA + kk, LDA, false);
      [[unroll]] for (uint j = 0; j < RN; ++j) coopMatLoadNV(fb[j], Bs, kk * LDB + sub_col + 16 * j, LDB, false);
      [[unroll]] for (uint i = 0; i < RM; ++i) {
        [[unroll]] for (uint j = 0; j < RN; ++j) acc[i * RN + j] = coopMatMulAddNV(fa[i], fb[j], acc[i * RN + j]);
      }
    }
    barrier();
  }
  [[unroll]] for (uint i = 0; i < RM; ++i) {
    [[unroll]] for (uint j = 0; j < RN; ++j)
      coopMatStoreNV(acc[i * RN + j], c, (tile_row + sub_row + 16 * i) * N + tile_col + sub_col + 16 * j, N, false);
  }
}
