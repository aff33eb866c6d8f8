// A half-precision GEMM on tensor cores at workgroup scope (VK_NV_cooperative_matrix2) with A and B
// staged through shared memory by the shader itself, included by matmul_f16_workgroup.comp (ELEMENT
// float16_t; matmul_f16's staged 3 to 13), which enables its type's extensions first. The
// tensor-layout path (matmul_tensor_layout.glsl) is faster on the H100. A TM x TN tile of C per
// workgroup is one workgroup-scope accumulator, and the driver divides the product among the
// subgroups. Per step of BK the workgroup copies a TM x BK block of A and a BK x TN block of B into
// shared memory with 16-byte loads (each element read from global memory once per workgroup; the
// next step's loads in registers during this step's multiply-adds, as in
// matmul_f16_coopmat_staged.comp) and loads them as one workgroup-scope A and B. With one shared
// buffer (BUFFERS 1) a step waits at two barriers: before overwriting the blocks the last step
// read, and before reading the new ones. With two (BUFFERS 2) the next step's blocks go into the
// other buffer after this step's multiply-adds, and one barrier per step separates them. Shared
// memory holds uvec4s (8 elements), rows padded by one; coopMatLoad counts offset and stride in
// uvec4s. Sizes are multiples of TM (M), TN (N) and BK (K): the plan checks. With GROUP > 0 the
// workgroups walk the C tiles in bands of GROUP tile rows, column by column within a band (rather
// than row by row), so that the workgroups resident at one time share fewer, more reused A row
// blocks and B column blocks in L2.
#include "kernels/common/tile_bands.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TM = 128;
layout(constant_id = 2) const uint TN = 128;
layout(constant_id = 3) const uint BK = 32;
layout(constant_id = 4) const uint BUFFERS = 1;  // 1 or 2
layout(constant_id = 5) const uint GROUP = 0;    // tile rows per band; 0: row by row
const uint LDA = BK / 8 + 1;      // uvec4s per staged row of A
const uint LDB = TN / 8 + 1;      // uvec4s per staged row of B
const uint A_VECS = TM * BK / 8;  // uvec4s of A copied per step
const uint B_VECS = BK * TN / 8;
const uint A_BUF = TM * LDA;       // uvec4s per shared buffer of A
const uint B_BUF = BK * LDB;
const uint WG = gl_WorkGroupSize.x;
const uint A_PER = (A_VECS + WG - 1) / WG;  // per invocation
const uint B_PER = (B_VECS + WG - 1) / WG;

layout(push_constant) uniform Shape { uint M, N, K; };
layout(std430, binding = 0) readonly buffer MatA { uvec4 a[]; };  // 8 elements each
layout(std430, binding = 1) readonly buffer MatB { uvec4 b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

shared uvec4 As[A_BUF * BUFFERS];
shared uvec4 Bs[B_BUF * BUFFERS];

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

void store_step(uint buf) {  // into shared buffer buf
  [[unroll]] for (uint i = 0; i < A_PER; ++i) {
    const uint v = gl_LocalInvocationID.x + i * WG;
    if (A_VECS % WG == 0 || v < A_VECS) As[buf * A_BUF + (v / (BK / 8)) * LDA + v % (BK / 8)] = pa[i];
  }
  [[unroll]] for (uint i = 0; i < B_PER; ++i) {
    const uint v = gl_LocalInvocationID.x + i * WG;
    if (B_VECS % WG == 0 || v < B_VECS) Bs[buf * B_BUF + (v / (TN / 8)) * LDB + v % (TN / 8)] = pb[i];
  }
}

void main() {
  const uvec2 tile = banded_tile(GROUP);
  const uint tile_row = tile.x * TM, tile_col = tile.y * TN;
  coopmat<float, gl_ScopeWorkgroup, TM, TN, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeWorkgroup, TM, TN, gl_MatrixUseAccumulator>(0.0);
  const uint steps = K / BK;
  load_step(tile_row, tile_col, 0);
  if (BUFFERS == 2) {
    store_step(0);
    barrier();
  }
  for (uint s = 0; s < steps; ++s) {
    const uint buf = BUFFERS == 2 ? s & 1 : 0;
    if (BUFFERS == 1) {
      barrier();  // every subgroup has read the blocks of step s - 1
      store_step(0);
      barrier();
    }
    if (s + 1 < steps) load_step(tile_row, tile_col, (s + 1) * BK);
    coopmat<ELEMENT, gl_ScopeWorkgroup, TM, BK, gl_MatrixUseA> fa;
    coopmat<ELEMENT, gl_ScopeWorkgroup, BK, TN, gl_MatrixUseB> fb;
    coopMatLoad(fa, As, buf * A_BUF, LDA, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(fb, Bs, buf * B_BUF, LDB, gl_CooperativeMatrixLayoutRowMajor);
    acc = coopMatMulAdd(fa, fb, acc);
    if (BUFFERS == 2) {
      // The other buffer was last read in step s - 1, before the barrier that ended it.
      if (s + 1 < steps) store_step(buf ^ 1);
      barrier();
    }
  }
  tensorLayoutNV<2> lc = setTensorLayoutDimensionNV(createTensorLayoutNV(2), M, N);
  coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(lc, tile_row, TM, tile_col, TN));
}
