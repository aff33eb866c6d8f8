#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_control_flow_attributes : enable
// attention_fused on tensor cores (the flash-attention scheme): a workgroup owns ROWS query rows
// of one head, 16 per subgroup of 32. Its Q rows, scaled by log2(e) / sqrt(HD) and rounded to
// f16, stay in registers as fragments; K and V come KB keys at a time through shared memory as
// f16 (each block loaded into registers while the previous one is multiplied), and per block
// each subgroup computes S = Q K^T with f16 x f16 -> f32 multiply-adds, stores S to shared
// memory, runs the online softmax on it (two lanes per row: running maximum and sum in f32, P
// rounded to f16) and adds P V to its f32 output fragments. The output is
// rescaled only when a row's maximum grows by more than TAU (log2 units) since it was last
// rescaled, through shared memory (NV cooperative matrices have no per-row scaling, and this
// glslc's optimiser crashes on their component-wise arithmetic): below that, p = exp2(s - max)
// stays under 2^TAU, well inside f16, and the stale maximum cancels in o / l. Blocks wholly
// after a subgroup's rows are skipped under CAUSAL, and the workgroup stops at its last row's
// key. The f32 qkv [seq, 3d] is read as vec4 (d and HD multiples of 4); attn [seq, d] is f32.
// seq is a multiple of 16, so a subgroup's 16 rows are all in range or all out.
layout(local_size_x_id = 0) in;  // 32 * ROWS / 16
layout(constant_id = 1) const uint HD = 128;
layout(constant_id = 2) const uint CAUSAL = 0;
layout(constant_id = 3) const uint ROWS = 128;  // query rows per workgroup, 16 per subgroup
const uint KB = 32;        // keys per block
const uint HF = HD / 16;   // fragments across the head dimension
const uint KF = KB / 16;   // fragments across a key block
// Shared f16 data is held as uvec4s (8 halves) so every store is 16 bytes; coopMatLoadNV counts
// offsets and strides in uvec4s. Rows are padded by one uvec4 against bank conflicts.
const uint LDH = HD / 8 + 1;  // uvec4s per staged row of Q, K and V
const uint LDP = KB / 8 + 1;  // uvec4s per row of P
const uint LDS = KB / 4 + 1;  // vec4s per row of S
const uint QCHUNK = 64;       // Q rows staged at a time through the K and V space
const uint V_AT = KB * LDH, P_AT = 2 * KB * LDH;
const uint HD8 = HD / 8;                                      // 8-float units per head row
const uint BLOCK_UNITS = KB * HD8;                            // of K (and of V) per block
const uint PER_THREAD = (BLOCK_UNITS + ROWS * 2 - 1) / (ROWS * 2);  // of those per thread
const uint KEYS_PER_LANE = KB / 2;                            // two lanes per row
const float NEG_INF = -1.0 / 0.0;
const float TAU = 8.0;  // p <= 2^8 between rescales

layout(push_constant) uniform Shape {
  uint seq, d;
  float scale;  // 1 / sqrt(HD)
};
layout(std430, binding = 0) readonly buffer Qkv { vec4 qkv[]; };
layout(std430, binding = 1) writeonly buffer Attn { vec4 attn[]; };

// K, V and P (Q before the loop), f16; S, and output fragments being rescaled, f32.
shared uvec4 H[2 * KB * LDH + ROWS * LDP > QCHUNK * LDH ? 2 * KB * LDH + ROWS * LDP : QCHUNK * LDH];
shared uvec4 S[ROWS * LDS];  // f32 bits: NV cooperative matrices store to uvec4 arrays, not vec4

uvec4 pack8(vec4 lo, vec4 hi) {
  return uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
}

void main() {
  const uint threads = gl_WorkGroupSize.x, tid = gl_LocalInvocationID.x;
  const uint head = gl_WorkGroupID.y;
  const uint q0 = gl_WorkGroupID.x * ROWS;          // the workgroup's first query row
  const uint wrow = gl_SubgroupID * 16;             // the subgroup's first row in the block
  const uint lane = gl_SubgroupInvocationID;
  const uint r = lane / 2, half_index = lane % 2;   // this lane's row, and its half of the keys
  const uint row = q0 + wrow + r;
  const uint row_vec4s = 3 * d / 4;
  const uint q_at = head * HD / 4, k_at = (d + head * HD) / 4, v_at = (2 * d + head * HD) / 4;
  const float q_scale = scale * 1.4426950408889634;  // scores in log2 units: exp2 below

  // The next block's K and V, 8 floats a unit, loaded into registers while the current block is
  // multiplied.
  vec4 k_next[2 * PER_THREAD], v_next[2 * PER_THREAD];
  [[unroll]] for (uint t = 0; t < PER_THREAD; ++t) {
    const uint u = tid + t * threads, key = u / HD8, e = 2 * (u % HD8);
    const bool load = u < BLOCK_UNITS && key < seq;
    k_next[2 * t] = load ? qkv[key * row_vec4s + k_at + e] : vec4(0);
    k_next[2 * t + 1] = load ? qkv[key * row_vec4s + k_at + e + 1] : vec4(0);
    v_next[2 * t] = load ? qkv[key * row_vec4s + v_at + e] : vec4(0);
    v_next[2 * t + 1] = load ? qkv[key * row_vec4s + v_at + e + 1] : vec4(0);
  }

  fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> qf[HF];
  for (uint c0 = 0; c0 < ROWS; c0 += QCHUNK) {
    for (uint u = tid; u < QCHUNK * HD8; u += threads) {
      const uint rr = u / HD8, e = 2 * (u % HD8), qrow = q0 + c0 + rr;
      const uint at = qrow * row_vec4s + q_at + e;
      H[rr * LDH + u % HD8] =
          qrow < seq ? pack8(qkv[at] * q_scale, qkv[at + 1] * q_scale) : uvec4(0);
    }
    barrier();
    if (wrow >= c0 && wrow < c0 + QCHUNK) {
      [[unroll]] for (uint i = 0; i < HF; ++i) coopMatLoadNV(qf[i], H, (wrow - c0) * LDH + 2 * i, LDH, false);
    }
    barrier();
  }

  fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> o[HF];
  [[unroll]] for (uint i = 0; i < HF; ++i) o[i] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
  float running_max = NEG_INF, running_sum = 0.0;  // of this lane's row; the sum over its half
  const uint keys = CAUSAL != 0 ? min(seq, q0 + ROWS) : seq;
  for (uint k0 = 0; k0 < keys; k0 += KB) {
    barrier();  // the previous block's K, V reads are done
    [[unroll]] for (uint t = 0; t < PER_THREAD; ++t) {
      const uint u = tid + t * threads;
      if (u < BLOCK_UNITS) {
        const uint at = (u / HD8) * LDH + u % HD8;
        H[at] = pack8(k_next[2 * t], k_next[2 * t + 1]);
        H[V_AT + at] = pack8(v_next[2 * t], v_next[2 * t + 1]);
      }
    }
    barrier();
    if (k0 + KB < keys) {
      [[unroll]] for (uint t = 0; t < PER_THREAD; ++t) {
        const uint u = tid + t * threads, key = k0 + KB + u / HD8, e = 2 * (u % HD8);
        const bool load = u < BLOCK_UNITS && key < seq;
        k_next[2 * t] = load ? qkv[key * row_vec4s + k_at + e] : vec4(0);
        k_next[2 * t + 1] = load ? qkv[key * row_vec4s + k_at + e + 1] : vec4(0);
        v_next[2 * t] = load ? qkv[key * row_vec4s + v_at + e] : vec4(0);
        v_next[2 * t + 1] = load ? qkv[key * row_vec4s + v_at + e + 1] : vec4(0);
      }
    }
    if (CAUSAL != 0 && k0 > q0 + wrow + 15) continue;  // every key after every row here

    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> s[KF];
    [[unroll]] for (uint j = 0; j < KF; ++j) s[j] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
    [[unroll]] for (uint i = 0; i < HF; ++i) {
      [[unroll]] for (uint j = 0; j < KF; ++j) {
        fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> kt;  // K^T: K's rows read as columns
        coopMatLoadNV(kt, H, 16 * j * LDH + 2 * i, LDH, true);
        s[j] = coopMatMulAddNV(qf[i], kt, s[j]);
      }
    }
    [[unroll]] for (uint j = 0; j < KF; ++j) coopMatStoreNV(s[j], S, wrow * LDS + 4 * j, LDS, false);
    subgroupMemoryBarrierShared();
    subgroupBarrier();

    // Online softmax: this lane's keys are k0 + KEYS_PER_LANE * half_index + t.
    const uint first_key = k0 + KEYS_PER_LANE * half_index;
    float x[KEYS_PER_LANE];
    float block_max = NEG_INF;
    [[unroll]] for (uint t4 = 0; t4 < KEYS_PER_LANE / 4; ++t4) {
      const vec4 v = uintBitsToFloat(S[(wrow + r) * LDS + (KEYS_PER_LANE / 4) * half_index + t4]);
      [[unroll]] for (uint c = 0; c < 4; ++c) {
        const uint t = 4 * t4 + c, key = first_key + t;
        const bool masked = key >= seq || (CAUSAL != 0 && key > row);
        x[t] = masked ? NEG_INF : v[c];
        block_max = max(block_max, x[t]);
      }
    }
    block_max = max(block_max, subgroupShuffleXor(block_max, 1));
    // A row's first keys set its maximum (its output is still 0); later, only a jump past TAU.
    const bool first = running_max == NEG_INF;
    const bool rescale = !first && block_max > running_max + TAU;
    const float correction = rescale ? exp2(running_max - block_max) : 1.0;
    if (first || rescale) running_max = block_max;
    const float base = running_max == NEG_INF ? 0.0 : running_max;  // no key yet: p = 0 anyway
    running_sum *= correction;
    [[unroll]] for (uint t8 = 0; t8 < KEYS_PER_LANE / 8; ++t8) {
      f16vec2 p[4];
      [[unroll]] for (uint c = 0; c < 4; ++c) {
        p[c] = f16vec2(exp2(x[8 * t8 + 2 * c] - base), exp2(x[8 * t8 + 2 * c + 1] - base));
        running_sum += float(p[c].x) + float(p[c].y);  // the rounded p, as P V uses it
      }
      H[P_AT + (wrow + r) * LDP + (KEYS_PER_LANE / 8) * half_index + t8] =
          uvec4(packFloat2x16(p[0]), packFloat2x16(p[1]), packFloat2x16(p[2]), packFloat2x16(p[3]));
    }
    if (subgroupAny(rescale)) {
      // o *= correction per row, a fragment at a time through this subgroup's S rows.
      [[unroll]] for (uint i = 0; i < HF; ++i) {
        subgroupBarrier();  // S read (or the last fragment) before it is overwritten
        coopMatStoreNV(o[i], S, wrow * LDS, LDS, false);
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        [[unroll]] for (uint h = 0; h < 2; ++h) {
          const uint at = (wrow + r) * LDS + 2 * half_index + h;
          S[at] = floatBitsToUint(uintBitsToFloat(S[at]) * correction);
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        coopMatLoadNV(o[i], S, wrow * LDS, LDS, false);
      }
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();

    [[unroll]] for (uint j = 0; j < KF; ++j) {
      fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> pf;
      coopMatLoadNV(pf, H, P_AT + wrow * LDP + 2 * j, LDP, false);
      [[unroll]] for (uint i = 0; i < HF; ++i) {
        fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> vf;
        coopMatLoadNV(vf, H, V_AT + 16 * j * LDH + 2 * i, LDH, false);
        o[i] = coopMatMulAddNV(pf, vf, o[i]);
      }
    }
  }

  // attn = o / l, a fragment at a time through this subgroup's S rows; lane (r, half) writes 8
  // consecutive floats of its row as two vec4s.
  running_sum += subgroupShuffleXor(running_sum, 1);
  const float inverse_sum = 1.0 / running_sum;
  [[unroll]] for (uint i = 0; i < HF; ++i) {
    subgroupBarrier();
    coopMatStoreNV(o[i], S, wrow * LDS, LDS, false);
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    if (row < seq) {
      const uint at = (row * d + head * HD + 16 * i + 8 * half_index) / 4;
      attn[at] = uintBitsToFloat(S[(wrow + r) * LDS + 2 * half_index]) * inverse_sum;
      attn[at + 1] = uintBitsToFloat(S[(wrow + r) * LDS + 2 * half_index + 1]) * inverse_sum;
    }
  }
}
