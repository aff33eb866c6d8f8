// A half-precision GEMM on tensor cores at workgroup scope (VK_NV_cooperative_matrix2) with A and
// B loaded straight from global memory through tensor layouts: the driver stages the blocks
// through shared memory of its own, asynchronously, with no copies, registers or barriers of
// ours. Included by matmul_f16_tensor.comp (ELEMENT float16_t) and matmul_bf16_tensor.comp
// (bfloat16_t), which enable their types' extensions first. A TM x TN tile of C per workgroup is
// one accumulator. K and N are specialization constants, so the layouts' strides and the loop's
// trip count are known when the pipeline is built, and the k loop is unrolled UNROLL steps deep:
// on the H100 at 4096^3 (128 x 256 tiles, 256 invocations) 4 steps per iteration ran 515 µs, 8
// 476, 16 439, 64 425, all 128 (the whole k) 482; a first version with K from push constants and
// no unrolling ran 1.79 ms (docs/performance.md). The layouts do not clamp: sizes are multiples
// of TM (M), TN (N) and BK x UNROLL (K), which the plan checks. With GROUP > 0 the workgroups walk
// the C tiles in bands of GROUP tile rows, column by column within a band.
#include "kernels/common/tile_bands.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TM = 128;
layout(constant_id = 2) const uint TN = 256;
layout(constant_id = 3) const uint BK = 32;
layout(constant_id = 4) const uint UNROLL = 8;  // k-steps per loop iteration
layout(constant_id = 5) const uint KC = 256;    // K
layout(constant_id = 6) const uint NC = 256;    // N
layout(constant_id = 7) const uint GROUP = 0;   // tile rows per band; 0: row by row

layout(push_constant) uniform Shape { uint M, N, K; };
layout(std430, binding = 0) readonly buffer MatA { ELEMENT a[]; };
layout(std430, binding = 1) readonly buffer MatB { ELEMENT b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

void main() {
  const uvec2 tile = banded_tile(GROUP);
  const uint tile_row = tile.x * TM, tile_col = tile.y * TN;
  const tensorLayoutNV<2> la = setTensorLayoutDimensionNV(createTensorLayoutNV(2), M, KC);
  const tensorLayoutNV<2> lb = setTensorLayoutDimensionNV(createTensorLayoutNV(2), KC, NC);
  coopmat<float, gl_ScopeWorkgroup, TM, TN, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeWorkgroup, TM, TN, gl_MatrixUseAccumulator>(0.0);
  for (uint k0 = 0; k0 < KC; k0 += BK * UNROLL) {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
      coopmat<ELEMENT, gl_ScopeWorkgroup, TM, BK, gl_MatrixUseA> fa;
      coopmat<ELEMENT, gl_ScopeWorkgroup, BK, TN, gl_MatrixUseB> fb;
      coopMatLoadTensorNV(fa, a, 0, sliceTensorLayoutNV(la, tile_row, TM, k0 + u * BK, BK));
      coopMatLoadTensorNV(fb, b, 0, sliceTensorLayoutNV(lb, k0 + u * BK, BK, tile_col, TN));
      acc = coopMatMulAdd(fa, fb, acc);
    }
  }
  const tensorLayoutNV<2> lc = setTensorLayoutDimensionNV(createTensorLayoutNV(2), M, NC);
  coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(lc, tile_row, TM, tile_col, TN));
}
