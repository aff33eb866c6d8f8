#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable
// attention_fused on tensor cores at workgroup scope (VK_NV_cooperative_matrix2): a workgroup
// owns ROWS query rows of one head, and every product is one workgroup-scope multiply-add that
// the driver divides among the subgroups. Q (scaled by log2(e) / sqrt(HD), rounded to f16) is
// staged once through shared memory and held as one ROWS x HD matrix. K and V come KB keys at a
// time through shared memory as f16 (the next block's f32 values in registers while this one is
// multiplied, as in matmul_f16_workgroup.comp), and per block:
//   S = Q K^T (ROWS x KB, f32), masked to -inf past seq and, under CAUSAL, past each row;
//   the row maxima of S (coopMatReduceNV), the running maxima M, P = exp2(S - M) and the
//   correction exp2(M_old - M) element by element, on matrices of S's shape, whose elements in
//   a row all hold the row's value (so one index walks them all alike);
//   L = L * correction + P, element by element: the row sums are reduced once, at the end;
//   O = O * correction (spread to O's shape by a reduction that keeps a row's value) + P V,
//   P rounded to f16.
// With LAZY, a row's running maximum moves only when the block's maximum passes it by more than
// TAU (log2 units): below that, P = exp2(S - M) stays under 2^TAU, well inside f16, and the stale
// maximum cancels in O / L. O then needs its correction only in the rare blocks where some row's
// maximum moved after its first keys: the workgroup learns that through a shared flag and one
// more barrier, and skips the spreading reduction and the multiply otherwise. With BUFFERS 2, K
// and V go through two shared buffers: the next block is stored into the other one after this
// block's multiply-adds, and one barrier per block separates them instead of two (LAZY needs
// BUFFERS 1).
// attn = O / rowsum(L) is stored through a tensor layout that drops rows past seq. The f32 qkv
// [seq, 3d] is read as vec4 (d and HD multiples of 4); shared f16 data is held as uvec4s (8
// halves), rows padded by one against bank conflicts; coopMatLoad counts in uvec4s.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint HD = 128;
layout(constant_id = 2) const uint CAUSAL = 0;
layout(constant_id = 3) const uint ROWS = 64;  // query rows per workgroup
layout(constant_id = 4) const uint KB = 64;    // keys per block
layout(constant_id = 5) const uint LAZY = 0;   // 1: maxima moved only past TAU
layout(constant_id = 6) const uint PACKED = 0;  // 1: the next block held as f16, half the registers
layout(constant_id = 7) const uint BUFFERS = 1;  // 1 or 2
const uint WG = gl_WorkGroupSize.x;
const uint HD8 = HD / 8;                     // 8-float units per head row
const uint LDH = HD8 + 1;                    // uvec4s per staged row of Q, K and V
const uint UNITS = KB * HD8;                 // of K (and of V) per block
const uint PER = (UNITS + WG - 1) / WG;      // of those per invocation
const uint V_AT = KB * LDH;
const uint BUF = 2 * KB * LDH;               // uvec4s per buffer of K and V
const float NEG_INF = -1.0 / 0.0;
const float NO_MAX = -1.0e30;  // the running maximum before any key: finite, so M_old - M is 0, not NaN
const float TAU = 8.0;         // P <= 2^8 between moves of the maximum (LAZY)

layout(push_constant) uniform Shape {
  uint seq, d;
  float scale;  // 1 / sqrt(HD)
};
layout(std430, binding = 0) readonly buffer Qkv { vec4 qkv[]; };
layout(std430, binding = 1) writeonly buffer Attn { float attn[]; };

// Q before the loop, then K and V.
shared uvec4 H[ROWS > BUFFERS * 2 * KB ? ROWS * LDH : BUFFERS * BUF];
shared uint moved;  // LAZY: some row's maximum moved after its first keys in this block

vec4 k_next[2 * PER], v_next[2 * PER];  // the next block, 8 floats a unit
uvec4 k_packed[PER], v_packed[PER];      // or (PACKED) 8 halves a unit

uvec4 pack8(vec4 lo, vec4 hi) {
  return uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
}

void load_block(uint k0, uint k_at, uint v_at, uint row_vec4s) {
  [[unroll]] for (uint t = 0; t < PER; ++t) {
    const uint u = gl_LocalInvocationID.x + t * WG, key = k0 + u / HD8, e = 2 * (u % HD8);
    const bool load = (UNITS % WG == 0 || u < UNITS) && key < seq;
    k_next[2 * t] = load ? qkv[key * row_vec4s + k_at + e] : vec4(0);
    k_next[2 * t + 1] = load ? qkv[key * row_vec4s + k_at + e + 1] : vec4(0);
    v_next[2 * t] = load ? qkv[key * row_vec4s + v_at + e] : vec4(0);
    v_next[2 * t + 1] = load ? qkv[key * row_vec4s + v_at + e + 1] : vec4(0);
    if (PACKED != 0) {
      k_packed[t] = pack8(k_next[2 * t], k_next[2 * t + 1]);
      v_packed[t] = pack8(v_next[2 * t], v_next[2 * t + 1]);
    }
  }
}

void store_block(uint buf) {
  [[unroll]] for (uint t = 0; t < PER; ++t) {
    const uint u = gl_LocalInvocationID.x + t * WG;
    if (UNITS % WG == 0 || u < UNITS) {
      const uint at = buf * BUF + (u / HD8) * LDH + u % HD8;
      H[at] = PACKED != 0 ? k_packed[t] : pack8(k_next[2 * t], k_next[2 * t + 1]);
      H[V_AT + at] = PACKED != 0 ? v_packed[t] : pack8(v_next[2 * t], v_next[2 * t + 1]);
    }
  }
}

// Keys past seq, and under CAUSAL keys after the row, weigh nothing.
float mask(const in uint r, const in uint c, const in float x, const in uint q0, const in uint k0) {
  const uint key = k0 + c;
  return key >= seq || (CAUSAL != 0 && key > q0 + r) ? NEG_INF : x;
}
float max_of(const in float a, const in float b) { return max(a, b); }
float sum_of(const in float a, const in float b) { return a + b; }
float first_of(const in float a, const in float b) { return a; }  // a row's elements are equal

void main() {
  const uint head = gl_WorkGroupID.y, q0 = gl_WorkGroupID.x * ROWS;
  const uint row_vec4s = 3 * d / 4;
  const uint q_at = head * HD / 4, k_at = (d + head * HD) / 4, v_at = (2 * d + head * HD) / 4;
  const float q_scale = scale * 1.4426950408889634;  // scores in log2 units: exp2 below

  for (uint u = gl_LocalInvocationID.x; u < ROWS * HD8; u += WG) {
    const uint r = u / HD8, e = 2 * (u % HD8), at = (q0 + r) * row_vec4s + q_at + e;
    H[r * LDH + u % HD8] = q0 + r < seq ? pack8(qkv[at] * q_scale, qkv[at + 1] * q_scale) : uvec4(0);
  }
  load_block(0, k_at, v_at, row_vec4s);
  barrier();
  coopmat<float16_t, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseA> q;
  coopMatLoad(q, H, 0, LDH, gl_CooperativeMatrixLayoutRowMajor);

  coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator> o =
      coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator>(0.0);
  coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> m =
      coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator>(NO_MAX);
  coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> l =
      coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator>(0.0);
  const uint keys = CAUSAL != 0 ? min(seq, q0 + ROWS) : seq;
  if (BUFFERS == 2) {
    barrier();  // Q is read
    store_block(0);
    barrier();
  }
  for (uint k0 = 0, block = 0; k0 < keys; k0 += KB, ++block) {
    const uint buf = BUFFERS == 2 ? block & 1 : 0;
    if (BUFFERS == 1) {
      barrier();  // Q (first block) or the previous block's K and V are read
      store_block(0);
      if (LAZY != 0 && gl_LocalInvocationID.x == 0) moved = 0;  // read before the barrier above
      barrier();
    }
    if (k0 + KB < keys) load_block(k0 + KB, k_at, v_at, row_vec4s);

    coopmat<float16_t, gl_ScopeWorkgroup, HD, KB, gl_MatrixUseB> kt;  // K^T: K's rows as columns
    coopMatLoad(kt, H, buf * BUF, LDH, gl_CooperativeMatrixLayoutColumnMajor);
    coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> s =
        coopMatMulAdd(q, kt, coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator>(0.0));
    if (k0 + KB > seq || (CAUSAL != 0 && k0 + KB > q0 + 1)) coopMatPerElementNV(s, s, mask, q0, k0);

    coopmat<float, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseAccumulator> block_max, correction;
    coopMatReduceNV(block_max, s, gl_CooperativeMatrixReduceRowNV, max_of);
    bool move = false;
    [[unroll]] for (uint i = 0; i < s.length(); ++i) {
      const bool past = LAZY == 0 || block_max[i] > m[i] + TAU;
      const float new_max = past ? max(m[i], block_max[i]) : m[i];
      move = move || (past && new_max > m[i] && m[i] != NO_MAX);
      correction[i] = exp2(m[i] - new_max);
      s[i] = exp2(s[i] - new_max);  // P
      l[i] = l[i] * correction[i] + s[i];
      m[i] = new_max;
    }
    if (LAZY != 0) {
      if (move) atomicOr(moved, 1u);
      barrier();
    }
    if (LAZY == 0 || moved != 0) {
      coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator> row_correction;
      coopMatReduceNV(row_correction, correction, gl_CooperativeMatrixReduceRowNV, first_of);
      o = o * row_correction;
    }

    coopmat<float16_t, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseA> p =
        coopmat<float16_t, gl_ScopeWorkgroup, ROWS, KB, gl_MatrixUseA>(s);
    coopmat<float16_t, gl_ScopeWorkgroup, KB, HD, gl_MatrixUseB> v;
    coopMatLoad(v, H, buf * BUF + V_AT, LDH, gl_CooperativeMatrixLayoutRowMajor);
    o = coopMatMulAdd(p, v, o);
    if (BUFFERS == 2) {
      // The other buffer was last read in the previous block, before the barrier that ended it.
      if (k0 + KB < keys) store_block(buf ^ 1);
      barrier();
    }
  }

  coopmat<float, gl_ScopeWorkgroup, ROWS, HD, gl_MatrixUseAccumulator> row_sum;
  coopMatReduceNV(row_sum, l, gl_CooperativeMatrixReduceRowNV, sum_of);
  [[unroll]] for (uint i = 0; i < o.length(); ++i) o[i] /= row_sum[i];
  tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> la =
      createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
  la = setTensorLayoutDimensionNV(la, seq, d);
  coopMatStoreTensorNV(o, attn, 0, sliceTensorLayoutNV(la, q0, ROWS, head * HD, HD));
}
