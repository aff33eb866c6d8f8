// Partial pass of top-k sampling: workgroup (chunk, row) finds the k largest logits of its
// chunk of wg * ITEMS logits and writes them, with their token indices, as candidates.
#include "../softmax/workgroup_reduce.glsl"

layout(constant_id = 1) const uint ITEMS = 8;

layout(push_constant) uniform Shape { uint vocab, k, chunks; } s;

layout(std430, binding = 0) readonly buffer Logits { float logits[]; };
layout(std430, binding = 1) writeonly buffer CandidateValues { float cand_val[]; };
layout(std430, binding = 2) writeonly buffer CandidateTokens { uint cand_tok[]; };

#include "topk_select.glsl"

// Computed, not held: 32 fewer registers per thread, more workgroups in flight. Past the
// vocabulary: padding, a token of its own.
float token(uint i) {
  return float(gl_WorkGroupID.x * ITEMS * gl_WorkGroupSize.x + i * gl_WorkGroupSize.x +
               gl_LocalInvocationID.x);
}

void main() {
  const uint chunk = gl_WorkGroupID.x, row = gl_WorkGroupID.y;
  const uint first = chunk * ITEMS * gl_WorkGroupSize.x;
  for (uint i = 0; i < ITEMS; ++i) {  // coalesced: consecutive threads, consecutive tokens
    const uint t = first + i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    val[i] = t < s.vocab ? logits[row * s.vocab + t] : NEG_INF;
  }
  const uint out_base = (row * s.chunks + chunk) * s.k;
#define EMIT_CANDIDATE(r, v, t)                                  \
  {                                                              \
    cand_val[out_base + r] = v;                                  \
    cand_tok[out_base + r] = t < float(s.vocab) && v > NEG_INF ? uint(t) : 0xffffffffu; \
  }
  SELECT_TOP_K(s.k, EMIT_CANDIDATE)
}
