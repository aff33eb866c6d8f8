#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable
// attention_fused on tensor cores at workgroup scope (VK_NV_cooperative_matrix2) with every
// operand loaded through tensor layouts: no shared memory, no barriers and no copies of ours; the
// driver stages the blocks itself, as matmul_tensor_layout.glsl does for the GEMMs. A workgroup
// owns ROWS query rows of one head. Q comes from the f32 qkv [SEQ, 3D] as an f32 matrix, scaled
// by log2(e) / sqrt(HD) and converted to f16 once; K and V come KB keys at a time from kv
// [SEQ, 2D], already rounded to f16 by the pre-pass (attention_kv_f16.comp), or with KV32 from
// qkv as f32 matrices converted to f16 in registers (no pre-pass, twice the bytes), K^T through a
// transposing view. Per block, as attention_fused_workgroup.comp does after its staging:
//   S = Q K^T (ROWS x KB, f32), masked to -inf past SEQ and, under CAUSAL, past each row;
//   the row maxima (coopMatReduceNV), the running maxima M, P = exp2(S - M), the correction
//   exp2(M_old - M) and the running sums L = L * correction + P element by element on matrices
//   of S's shape whose elements in a row hold the row's value (rows of L reduced once, at the end);
//   O = O * correction (spread to O's shape by a reduction that keeps a row's value) + P V, P in f16.
// SEQ and D are specialization constants, so the layouts' strides and the loop's trip count are
// known when the pipeline is built. CLAMP is 1 where SEQ is not a multiple of ROWS or of KB: the
// layouts then read zeros past SEQ (masked); otherwise they do not check. attn = O / rowsum(L)
// is stored through a layout that drops rows past SEQ. UNROLL blocks of keys per iteration let
// the driver issue a later block's loads early. On the H100 at seq 4096 (paths 25 to 40) the best
// point, 64 rows and 64 keys on 128 invocations, 4 blocks per iteration, ran 1.87 ms against 1.20
// for the staged subgroup path 22; without unrolling 4.19 ms (docs/performance.md).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint HD = 128;
layout(constant_id = 2) const uint CAUSAL = 0;
layout(constant_id = 3) const uint ROWS = 128;  // query rows per workgroup
layout(constant_id = 4) const uint KB = 64;     // keys per block
layout(constant_id = 5) const uint SEQ = 4096;
layout(constant_id = 6) const uint D = 4096;
layout(constant_id = 7) const uint CLAMP = 0;   // gl_CooperativeMatrixClampMode: 0 undefined, 1 constant
layout(constant_id = 8) const uint KV32 = 0;    // 1: K and V read from qkv as f32
layout(constant_id = 9) const uint UNROLL = 1;  // blocks of keys per loop iteration
const float NEG_INF = -1.0 / 0.0;
const float NO_MAX = -1.0e30;  // the running maximum before any key: finite, so M_old - M is 0, not NaN

layout(push_constant) uniform Shape {
  uint seq, d;
  float scale;  // 1 / sqrt(HD)
};
layout(std430, binding = 0) readonly buffer Qkv { float qkv[]; };
layout(std430, binding = 1) writeonly buffer Attn { float attn[]; };
layout(std430, binding = 2) readonly buffer Kv { float16_t kv[]; };  // K then V per token

// Keys past SEQ, and under CAUSAL keys after the row, weigh nothing.
float mask(const in uint r, const in uint c, const in float x, const in uint q0, const in uint k0) {
  const uint key = k0 + c;
  return key >= SEQ || (CAUSAL != 0 && key > q0 + r) ? NEG_INF : x;
}
float max_of(const in float a, const in float b) { return max(a, b); }
float sum_of(const in float a, const in float b) { return a + b; }
float first_of(const in float a, const in float b) { return a; }  // a row's elements are equal

void main() {
  const uint head = gl_WorkGroupID.y, q0 = gl_WorkGroupID.x * ROWS;
  const tensorLayoutNV<2, CLAMP> lq = setTensorLayoutDimensionNV(createTensorLayoutNV(2, CLAMP), SEQ, 3 * D);
  const tensorLayoutNV<2, CLAMP> lkv = setTensorLayoutDimensionNV(createTensorLayoutNV(2, CLAMP), SEQ, 2 * D);
  const tensorViewNV<2, false, 1, 0> transposed = createTensorViewNV(2, false, 1, 0);

  coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator> q32;
  coopMatLoadTensorNV(q32, qkv, 0, sliceTensorLayoutNV(lq, q0, ROWS, head * HD, HD));
  q32 = q32 * (scale * 1.4426950408889634);  // scores in log2 units: exp2 below
  const coopmat<float16_t, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseA> q =
      coopmat<float16_t, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseA>(q32);

  coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator> o =
      coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator>(0.0);
  coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> m =
      coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator>(NO_MAX);
  coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> l =
      coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator>(0.0);
  const uint keys = CAUSAL != 0 ? min(SEQ, q0 + ROWS) : SEQ;
  // Only where a block of an iteration can pass the keys is it tested in the unrolled body.
  const bool partial = CAUSAL != 0 || SEQ % (KB * UNROLL) != 0;
  for (uint k = 0; k < keys; k += KB * UNROLL) {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
      const uint k0 = k + u * KB;
      if (partial && k0 >= keys) continue;
      coopmat<float16_t, gl_ScopeWorkgroup, HD, KB, gl_MatrixUseB> kt;
      if (KV32 != 0) {
        coopmat<float, gl_ScopeWorkgroup, HD, KB, gl_MatrixUseAccumulator> k32;
        coopMatLoadTensorNV(k32, qkv, 0, sliceTensorLayoutNV(lq, k0, KB, D + head * HD, HD), transposed);
        kt = coopmat<float16_t, gl_ScopeWorkgroup, HD, KB, gl_MatrixUseB>(k32);
      } else {
        coopMatLoadTensorNV(kt, kv, 0, sliceTensorLayoutNV(lkv, k0, KB, head * HD, HD), transposed);
      }
      coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> s =
          coopMatMulAdd(q, kt, coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator>(0.0));
      if (k0 + KB > SEQ || (CAUSAL != 0 && k0 + KB > q0 + 1)) coopMatPerElementNV(s, s, mask, q0, k0);

      coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> correction;
      coopMatReduceNV(correction, s, gl_CooperativeMatrixReduceRowNV, max_of);  // the block's maxima first
      [[unroll]] for (uint i = 0; i < s.length(); ++i) {
        const float new_max = max(m[i], correction[i]);
        correction[i] = exp2(m[i] - new_max);
        s[i] = exp2(s[i] - new_max);  // P
        l[i] = l[i] * correction[i] + s[i];
        m[i] = new_max;
      }
      coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator> row_correction;
      coopMatReduceNV(row_correction, correction, gl_CooperativeMatrixReduceRowNV, first_of);
      o = o * row_correction;

      coopmat<float16_t, gl_ScopeWorkgroup, KB, HD, gl_MatrixUseB> v;
      if (KV32 != 0) {
        coopmat<float, gl_ScopeWorkgroup, KB, HD, gl_MatrixUseAccumulator> v32;
        coopMatLoadTensorNV(v32, qkv, 0, sliceTensorLayoutNV(lq, k0, KB, 2 * D + head * HD, HD));
        v = coopmat<float16_t, gl_ScopeWorkgroup, KB, HD, gl_MatrixUseB>(v32);
      } else {
        coopMatLoadTensorNV(v, kv, 0, sliceTensorLayoutNV(lkv, k0, KB, D + head * HD, HD));
      }
      o = coopMatMulAdd(coopmat<float16_t, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseA>(s), v, o);
    }
  }

  coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator> row_sum;
  coopMatReduceNV(row_sum, l, gl_CooperativeMatrixReduceRowNV, sum_of);
  [[unroll]] for (uint i = 0; i < o.length(); ++i) o[i] /= row_sum[i];
  tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> la =
      createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
  la = setTensorLayoutDimensionNV(la, SEQ, D);
  coopMatStoreTensorNV(o, attn, 0, sliceTensorLayoutNV(la, q0, ROWS, head * HD, HD));
}
