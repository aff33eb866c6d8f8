#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : enable
// matmul_f16 on tensor cores, A and B staged through shared memory: a TM x TN tile of C per
// workgroup, its subgroups in an SM x SN grid of RM x RN 16x16 accumulators each. Per step of BK
// the workgroup copies a TM x BK block of A and a BK x TN block of B with 16-byte loads (each
// element read from global memory once per workgroup), and each subgroup loads its f16 fragments
// from shared memory. The global loads of step s + 1 go to registers before the multiply-adds of
// step s, so their latency hides behind the tensor cores. STAGES = 2: two shared buffers, the
// next step stored into the other one after the multiply-adds, one barrier per step (the buffer
// written in step s was last read in step s - 1, before the previous barrier); STAGES = 1: one
// buffer and two barriers per step, half the shared memory, and faster on the H100 at 4096^3
// (docs/performance.md). BK is 32 or 64 (tensor_staged_bk in tensor_fragments.h).
// Shared memory holds uvec4s (8 halves), so the copies are 16-byte stores; coopMatLoadNV counts
// offset and stride in the array's element type (SPV_NV_cooperative_matrix). Rows are padded by
// one uvec4, so the 8 rows of a fragment load start on distinct banks. Sizes are multiples of TM
// (M), TN (N) and BK (K): the plan checks.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TM = 128;
layout(constant_id = 2) const uint SM = 4;
layout(constant_id = 3) const uint SN = 2;
layout(constant_id = 4) const uint TN = 128;
layout(constant_id = 5) const uint BK = 32;
layout(constant_id = 6) const uint STAGES = 2;
const uint RM = TM / 16 / SM;
const uint RN = TN / 16 / SN;
const uint LDA = BK / 8 + 1;      // uvec4s per staged row of A
const uint LDB = TN / 8 + 1;      // uvec4s per staged row of B
const uint A_STAGE = TM * LDA;    // uvec4s per buffer of A
const uint B_STAGE = BK * LDB;
const uint A_VECS = TM * BK / 8;  // uvec4s of A copied per step
const uint B_VECS = BK * TN / 8;
const uint WG = gl_WorkGroupSize.x;
const uint A_PER = (A_VECS + WG - 1) / WG;  // per invocation
const uint B_PER = (B_VECS + WG - 1) / WG;

layout(push_constant) uniform Shape { uint M, N, K; };
layout(std430, binding = 0) readonly buffer MatA { uvec4 a[]; };  // 8 halves each
layout(std430, binding = 1) readonly buffer MatB { uvec4 b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

shared uvec4 As[STAGES * A_STAGE];
shared uvec4 Bs[STAGES * B_STAGE];

uvec4 pa[A_PER];  // the next step's blocks, in flight during this step's multiply-adds
uvec4 pb[B_PER];

void load_step(uint tile_row, uint tile_col, uint k0) {
  [[unroll]] for (uint i = 0; i < A_PER; ++i) {
    const uint v = gl_LocalInvocationID.x + i * WG;
    if (A_VECS % WG == 0 || v < A_VECS) pa[i] = a[((tile_row + v / (BK / 8)) * K + k0) / 8 + v % (BK / 8)];
  }
  [[unroll]] for (uint i = 0; i < B_PER; ++i) {
    const uint v = gl_LocalInvocationID.x + i * WG;
    if (B_VECS % WG == 0 || v < B_VECS) pb[i] = b[((k0 + v / (TN / 8)) * N + tile_col) / 8 + v % (TN / 8)];
  }
}

void store_step(uint buf) {
  [[unroll]] for (uint i = 0; i < A_PER; ++i) {
    const uint v = gl_LocalInvocationID.x + i * WG;
    if (A_VECS % WG == 0 || v < A_VECS) As[buf * A_STAGE + (v / (BK / 8)) * LDA + v % (BK / 8)] = pa[i];
  }
  [[unroll]] for (uint i = 0; i < B_PER; ++i) {
    const uint v = gl_LocalInvocationID.x + i * WG;
    if (B_VECS % WG == 0 || v < B_VECS) Bs[buf * B_STAGE + (v / (TN / 8)) * LDB + v % (TN / 8)] = pb[i];
  }
}

fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[RM * RN];

void multiply_step(uint buf, uint sub_row, uint sub_col) {
  [[unroll]] for (uint kk = 0; kk < BK / 16; ++kk) {
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fa[RM];
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fb[RN];
    [[unroll]] for (uint i = 0; i < RM; ++i)
      coopMatLoadNV(fa[i], As, buf * A_STAGE + (sub_row + 16 * i) * LDA + 2 * kk, LDA, false);
    [[unroll]] for (uint j = 0; j < RN; ++j)
      coopMatLoadNV(fb[j], Bs, buf * B_STAGE + 16 * kk * LDB + (sub_col + 16 * j) / 8, LDB, false);
    [[unroll]] for (uint i = 0; i < RM; ++i) {
      [[unroll]] for (uint j = 0; j < RN; ++j) acc[i * RN + j] = coopMatMulAddNV(fa[i], fb[j], acc[i * RN + j]);
    }
  }
}

void main() {
  const uint sg = gl_SubgroupID;
  const uint tile_row = gl_WorkGroupID.y * TM, tile_col = gl_WorkGroupID.x * TN;
  const uint sub_row = (sg % SM) * (TM / SM), sub_col = (sg / SM) * (TN / SN);
  [[unroll]] for (uint i = 0; i < RM * RN; ++i) acc[i] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
  const uint steps = K / BK;
  load_step(tile_row, tile_col, 0);
  if (STAGES == 2) {
    store_step(0);
    barrier();
    for (uint s = 0; s < steps; ++s) {
      if (s + 1 < steps) load_step(tile_row, tile_col, (s + 1) * BK);
      multiply_step(s & 1, sub_row, sub_col);
      if (s + 1 < steps) store_step((s + 1) & 1);
      barrier();
    }
  } else {
    for (uint s = 0; s < steps; ++s) {
      barrier();  // every subgroup has read the buffer of step s - 1
      store_step(0);
      barrier();
      if (s + 1 < steps) load_step(tile_row, tile_col, (s + 1) * BK);
      multiply_step(0, sub_row, sub_col);
    }
  }
  [[unroll]] for (uint i = 0; i < RM; ++i) {
    [[unroll]] for (uint j = 0; j < RN; ++j)
      coopMatStoreNV(acc[i * RN + j], c, (tile_row + sub_row + 16 * i) * N + tile_col + sub_col + 16 * j, N, false);
  }
}
