// Merge pass of top-k / top-p sampling, one workgroup per row: the k largest of the chunks'
// candidates, then (one thread, k is small) their softmax, the top-p nucleus (the shortest
// prefix whose probability reaches top_p), renormalised, and the token drawn with the row's
// seeded uniform number.
#include "../softmax/workgroup_reduce.glsl"

layout(constant_id = 1) const uint ITEMS = 8;
layout(constant_id = 2) const uint MAX_K = 64;

layout(push_constant) uniform Shape { uint vocab, k, chunks, seed; float top_p; } s;

layout(std430, binding = 0) readonly buffer CandidateValues { float cand_val[]; };
layout(std430, binding = 1) readonly buffer CandidateTokens { uint cand_tok[]; };
layout(std430, binding = 2) writeonly buffer TopTokens { uint top_tok[]; };
layout(std430, binding = 3) writeonly buffer TopProbs { float top_prob[]; };
layout(std430, binding = 4) writeonly buffer Chosen { uint token[]; };

#include "topk_select.glsl"

shared float sel_val[MAX_K];
shared uint sel_tok[MAX_K];

// The row's uniform number in [0, 1): a PCG hash of (seed, row), the same as the CPU's.
float uniform01(uint seed, uint row) {
  uint h = seed ^ (row * 0x9e3779b9u);
  h = h * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  h = (h >> 22u) ^ h;
  return float(h >> 8) * (1.0 / 16777216.0);
}

void main() {
  const uint row = gl_WorkGroupID.x;
  const uint n = s.chunks * s.k, base = row * n;
  for (uint i = 0; i < ITEMS; ++i) {
    const uint c = i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    const uint t = c < n ? cand_tok[base + c] : 0xffffffffu;
    val[i] = c < n && t != 0xffffffffu ? cand_val[base + c] : NEG_INF;
    tok[i] = c < n && t != 0xffffffffu ? float(t) : POS_INF;
  }
#define EMIT_SELECTED(r, v, t)                 \
  if (gl_LocalInvocationID.x == 0) {           \
    sel_val[r] = v;                            \
    sel_tok[r] = uint(t);                      \
  }
  SELECT_TOP_K(s.k, EMIT_SELECTED)
  if (gl_LocalInvocationID.x != 0) return;
  const uint out_base = row * s.k;
  float total = 0.0;
  for (uint r = 0; r < s.k; ++r) total += exp(sel_val[r] - sel_val[0]);
  float cumulative = 0.0;
  uint kept = s.k;
  for (uint r = 0; r < s.k; ++r) {
    cumulative += exp(sel_val[r] - sel_val[0]) / total;
    if (cumulative >= s.top_p) {
      kept = r + 1;
      break;
    }
  }
  float kept_total = 0.0;
  for (uint r = 0; r < kept; ++r) kept_total += exp(sel_val[r] - sel_val[0]);
  const float u = uniform01(s.seed, row);
  float below = 0.0;
  uint chosen = sel_tok[kept - 1];
  bool found = false;
  for (uint r = 0; r < s.k; ++r) {
    const float p = r < kept ? exp(sel_val[r] - sel_val[0]) / kept_total : 0.0;
    top_tok[out_base + r] = sel_tok[r];
    top_prob[out_base + r] = p;
    below += p;
    if (!found && r < kept && u < below) {
      chosen = sel_tok[r];
      found = true;
    }
  }
  token[row] = chosen;
}
