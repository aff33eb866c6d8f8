#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : enable
// attention_fused on tensor cores, 16 query rows per subgroup, with the whole online softmax in
// registers: the subgroup-scope 16x16 matrices of GL_KHR_cooperative_matrix, and from
// VK_NV_cooperative_matrix2 row reductions, per-element functions and conversions between uses.
// The workgroup stages Q once and K and V KB keys at a time through shared memory as f16 (the
// next block's f32 values in registers meanwhile, two barriers per block), as
// attention_fused_coopmat.comp does; but a subgroup's S = Q K^T never leaves its registers:
//   its row maxima come from coopMatReduceNV, one 16x16 fragment of keys at a time;
//   the running maxima M, the correction exp2(M_old - M), P = exp2(S - M) and the running sums
//   L (summed over the fragments of keys, element by element; rows reduced once at the end)
//   are 16x16 accumulators of one type, whose elements match position for position, and whose
//   rows hold one value each, so the correction also scales the output fragments element by
//   element;
//   P becomes an f16 A matrix by conversion, and O += P V.
// Every operation is the subgroup's own: subgroups wait for each other only at the block's two
// barriers. Under CAUSAL, blocks wholly after a subgroup's rows are skipped and the workgroup
// stops at its last row's key. Q is scaled by log2(e) / sqrt(HD) and rounded to f16; qkv
// [seq, 3d] is read as vec4 (d and HD multiples of 4) and attn [seq, d] written as f32; seq is a
// multiple of 16, so a subgroup's rows are all in range or all out. With F16KV, K and V come
// already rounded to f16 from kv [seq, 2d] (attention_kv_f16.comp): half the bytes to load and
// hold, nothing to convert.
layout(local_size_x_id = 0) in;  // 32 per subgroup
layout(constant_id = 1) const uint HD = 128;
layout(constant_id = 2) const uint CAUSAL = 0;
layout(constant_id = 3) const uint KB = 32;  // keys per block
layout(constant_id = 4) const uint F16KV = 0;  // 1: K and V read from kv
const uint WG = gl_WorkGroupSize.x;
const uint ROWS = WG / 2;                    // 16 per subgroup of 32
const uint HF = HD / 16;                     // fragments across the head dimension
const uint KF = KB / 16;                     // fragments across a block of keys
const uint HD8 = HD / 8;                     // 8-float units per head row
const uint LDH = HD8 + 1;                    // uvec4s per staged row of Q, K and V
const uint UNITS = KB * HD8;                 // of K (and of V) per block
const uint PER = (UNITS + WG - 1) / WG;      // of those per invocation
const uint V_AT = KB * LDH;
const float NEG_INF = -1.0 / 0.0;
const float NO_MAX = -1.0e30;  // the running maximum before any key: finite, so M_old - M is 0, not NaN

layout(push_constant) uniform Shape {
  uint seq, d;
  float scale;  // 1 / sqrt(HD)
};
layout(std430, binding = 0) readonly buffer Qkv { vec4 qkv[]; };
layout(std430, binding = 1) writeonly buffer Attn { float attn[]; };
layout(std430, binding = 2) readonly buffer Kv { uvec4 kv[]; };  // K then V per token, f16

// Q before the loop, then K and V.
shared uvec4 H[ROWS > 2 * KB ? ROWS * LDH : 2 * KB * LDH];

vec4 k_next[2 * PER], v_next[2 * PER];  // the next block, 8 floats a unit
uvec4 k_half[PER], v_half[PER];          // or (F16KV) 8 halves a unit

uvec4 pack8(vec4 lo, vec4 hi) {
  return uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
}

void load_block(uint k0, uint k_at, uint v_at, uint row_vec4s) {
  [[unroll]] for (uint t = 0; t < PER; ++t) {
    const uint u = gl_LocalInvocationID.x + t * WG, key = k0 + u / HD8, e = 2 * (u % HD8);
    const bool load = (UNITS % WG == 0 || u < UNITS) && key < seq;
    if (F16KV != 0) {
      const uint at = key * (d / 4) + gl_WorkGroupID.y * HD8 + u % HD8;  // d / 8 uvec4s of K, then of V
      k_half[t] = load ? kv[at] : uvec4(0);
      v_half[t] = load ? kv[at + d / 8] : uvec4(0);
      continue;
    }
    k_next[2 * t] = load ? qkv[key * row_vec4s + k_at + e] : vec4(0);
    k_next[2 * t + 1] = load ? qkv[key * row_vec4s + k_at + e + 1] : vec4(0);
    v_next[2 * t] = load ? qkv[key * row_vec4s + v_at + e] : vec4(0);
    v_next[2 * t + 1] = load ? qkv[key * row_vec4s + v_at + e + 1] : vec4(0);
  }
}

void store_block() {
  [[unroll]] for (uint t = 0; t < PER; ++t) {
    const uint u = gl_LocalInvocationID.x + t * WG;
    if (UNITS % WG == 0 || u < UNITS) {
      const uint at = (u / HD8) * LDH + u % HD8;
      H[at] = F16KV != 0 ? k_half[t] : pack8(k_next[2 * t], k_next[2 * t + 1]);
      H[V_AT + at] = F16KV != 0 ? v_half[t] : pack8(v_next[2 * t], v_next[2 * t + 1]);
    }
  }
}

// Keys past seq, and under CAUSAL keys after the row, weigh nothing: row0 and key0 are the
// fragment's first row and key.
float mask(const in uint r, const in uint c, const in float x, const in uint row0, const in uint key0) {
  const uint key = key0 + c;
  return key >= seq || (CAUSAL != 0 && key > row0 + r) ? NEG_INF : x;
}
float max_of(const in float a, const in float b) { return max(a, b); }
float sum_of(const in float a, const in float b) { return a + b; }

void main() {
  const uint head = gl_WorkGroupID.y, q0 = gl_WorkGroupID.x * ROWS;
  const uint wrow = gl_SubgroupID * 16, row0 = q0 + wrow;  // the subgroup's rows
  const uint row_vec4s = 3 * d / 4;
  const uint q_at = head * HD / 4, k_at = (d + head * HD) / 4, v_at = (2 * d + head * HD) / 4;
  const float q_scale = scale * 1.4426950408889634;  // scores in log2 units: exp2 below

  for (uint u = gl_LocalInvocationID.x; u < ROWS * HD8; u += WG) {
    const uint r = u / HD8, e = 2 * (u % HD8), at = (q0 + r) * row_vec4s + q_at + e;
    H[r * LDH + u % HD8] = q0 + r < seq ? pack8(qkv[at] * q_scale, qkv[at + 1] * q_scale) : uvec4(0);
  }
  load_block(0, k_at, v_at, row_vec4s);
  barrier();
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> q[HF];
  [[unroll]] for (uint i = 0; i < HF; ++i)
    coopMatLoad(q[i], H, wrow * LDH + 2 * i, LDH, gl_CooperativeMatrixLayoutRowMajor);

  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> o[HF];
  [[unroll]] for (uint i = 0; i < HF; ++i) o[i] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(NO_MAX);
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> l =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  const uint keys = CAUSAL != 0 ? min(seq, q0 + ROWS) : seq;
  for (uint k0 = 0; k0 < keys; k0 += KB) {
    barrier();  // Q (first block) or the previous block's K and V are read
    store_block();
    barrier();
    if (k0 + KB < keys) load_block(k0 + KB, k_at, v_at, row_vec4s);
    if (CAUSAL != 0 && k0 > row0 + 15) continue;  // every key after every row here

    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> s[KF];
    [[unroll]] for (uint j = 0; j < KF; ++j) {
      s[j] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
      [[unroll]] for (uint i = 0; i < HF; ++i) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> kt;  // K^T: K's rows as columns
        coopMatLoad(kt, H, 16 * j * LDH + 2 * i, LDH, gl_CooperativeMatrixLayoutColumnMajor);
        s[j] = coopMatMulAdd(q[i], kt, s[j]);
      }
      if (k0 + 16 * j + 16 > seq || (CAUSAL != 0 && k0 + 16 * j + 15 > row0))
        coopMatPerElementNV(s[j], s[j], mask, row0, k0 + 16 * j);
    }
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> new_max = m, fragment_max;
    [[unroll]] for (uint j = 0; j < KF; ++j) {
      coopMatReduceNV(fragment_max, s[j], gl_CooperativeMatrixReduceRowNV, max_of);
      [[unroll]] for (uint e = 0; e < m.length(); ++e) new_max[e] = max(new_max[e], fragment_max[e]);
    }
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> correction;
    [[unroll]] for (uint e = 0; e < m.length(); ++e) {
      correction[e] = exp2(m[e] - new_max[e]);
      l[e] *= correction[e];
    }
    m = new_max;
    [[unroll]] for (uint i = 0; i < HF; ++i) o[i] = o[i] * correction;
    [[unroll]] for (uint j = 0; j < KF; ++j) {
      [[unroll]] for (uint e = 0; e < m.length(); ++e) {
        s[j][e] = exp2(s[j][e] - m[e]);  // P
        l[e] += s[j][e];
      }
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> p =
          coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(s[j]);
      [[unroll]] for (uint i = 0; i < HF; ++i) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> v;
        coopMatLoad(v, H, V_AT + 16 * j * LDH + 2 * i, LDH, gl_CooperativeMatrixLayoutRowMajor);
        o[i] = coopMatMulAdd(p, v, o[i]);
      }
    }
  }

  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> row_sum;
  coopMatReduceNV(row_sum, l, gl_CooperativeMatrixReduceRowNV, sum_of);
  if (row0 < seq) {
    [[unroll]] for (uint i = 0; i < HF; ++i) {
      [[unroll]] for (uint e = 0; e < row_sum.length(); ++e) o[i][e] /= row_sum[e];
      coopMatStore(o[i], attn, row0 * d + head * HD + 16 * i, d, gl_CooperativeMatrixLayoutRowMajor);
    }
  }
}
