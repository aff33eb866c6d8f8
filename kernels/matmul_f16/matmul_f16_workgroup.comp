#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable
// matmul_f16 on tensor cores at workgroup scope (VK_NV_cooperative_matrix2): a TM x TN tile of C
// per workgroup is one workgroup-scope accumulator, and the driver divides the product among
// the subgroups. Per step of BK the workgroup copies a TM x BK block of A and a BK x TN block of
// B into shared memory with 16-byte loads (each element read from global memory once per
// workgroup) and multiplies them as workgroup-scope A and B matrices KSUB deep at a time (KSUB
// divides BK: a shallower KSUB holds fewer fragment registers at once, a deeper BK takes fewer
// barriers). With PREFETCH 1 the next step's loads are in registers during this step's
// multiply-adds (as in matmul_f16_coopmat_staged.comp); with 0 each step loads and stores its own
// blocks first, holding no registers across the multiply-adds (the workgroups beside it on the
// multiprocessor hide the latency). With one shared buffer (BUFFERS 1) a step waits at two
// barriers: before overwriting the blocks the last step read, and before reading the new ones.
// With two (BUFFERS 2) the next step's blocks go into the other buffer and one barrier per step
// separates them; the loop is unrolled by two so that every shared-memory offset is a constant.
// Loading the blocks straight from global memory through tensor layouts ran at 77 TFLOP/s on the
// H100 (docs/performance.md). Shared memory holds uvec4s (8 halves), rows padded by one;
// coopMatLoad counts offset and stride in uvec4s. Sizes are multiples of TM (M), TN (N) and BK
// (K): the plan checks.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TM = 128;
layout(constant_id = 2) const uint TN = 128;
layout(constant_id = 3) const uint BK = 32;
layout(constant_id = 4) const uint BUFFERS = 1;  // 1 or 2
layout(constant_id = 5) const uint KSUB = 32;    // 16, 32 or 64; divides BK
layout(constant_id = 6) const uint PREFETCH = 1;  // 0 or 1
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
layout(std430, binding = 0) readonly buffer MatA { uvec4 a[]; };  // 8 halves each
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

coopmat<float, gl_ScopeWorkgroup, TM, TN, gl_MatrixUseAccumulator> acc;

// The multiply-adds of one staged step from shared buffer BUF (a constant at every use).
#define MULTIPLY_STEP(BUF)                                                                           \
  [[unroll]] for (uint kk = 0; kk < BK / KSUB; ++kk) {                                            \
    coopmat<float16_t, gl_ScopeWorkgroup, TM, KSUB, gl_MatrixUseA> fa;                            \
    coopmat<float16_t, gl_ScopeWorkgroup, KSUB, TN, gl_MatrixUseB> fb;                            \
    coopMatLoad(fa, As, (BUF) * A_BUF + kk * (KSUB / 8), LDA, gl_CooperativeMatrixLayoutRowMajor); \
    coopMatLoad(fb, Bs, (BUF) * B_BUF + kk * KSUB * LDB, LDB, gl_CooperativeMatrixLayoutRowMajor); \
    acc = coopMatMulAdd(fa, fb, acc);                                                             \
  }

// Step S of two buffers, multiplying from buffer BUF and filling the other with step S + 1.
#define DOUBLE_STEP(BUF, S)                                               \
  {                                                                       \
    const bool more = (S) + 1 < steps;                                    \
    if (more) load_step(tile_row, tile_col, ((S) + 1) * BK);              \
    if (more && PREFETCH == 0) store_step(1 - (BUF));                     \
    MULTIPLY_STEP(BUF)                                                    \
    /* The other buffer was last read in step S - 1, before its barrier. */ \
    if (more && PREFETCH == 1) store_step(1 - (BUF));                     \
    barrier();                                                            \
  }

void main() {
  const uint tile_row = gl_WorkGroupID.y * TM, tile_col = gl_WorkGroupID.x * TN;
  acc = coopmat<float, gl_ScopeWorkgroup, TM, TN, gl_MatrixUseAccumulator>(0.0);
  const uint steps = K / BK;
  if (BUFFERS == 2) {
    load_step(tile_row, tile_col, 0);
    store_step(0);
    barrier();
    for (uint s = 0; s < steps; s += 2) {
      DOUBLE_STEP(0, s)
      if (s + 1 < steps) DOUBLE_STEP(1, s + 1)
    }
  } else {
    if (PREFETCH == 1) load_step(tile_row, tile_col, 0);
    for (uint s = 0; s < steps; ++s) {
      barrier();  // every subgroup has read the blocks of step s - 1
      if (PREFETCH == 0) load_step(tile_row, tile_col, s * BK);
      store_step(0);
      barrier();
      if (PREFETCH == 1 && s + 1 < steps) load_step(tile_row, tile_col, (s + 1) * BK);
      MULTIPLY_STEP(0)
    }
  }
  tensorLayoutNV<2> lc = setTensorLayoutDimensionNV(createTensorLayoutNV(2), M, N);
  coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(lc, tile_row, TM, tile_col, TN));
}
