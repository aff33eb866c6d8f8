// Merge pass of top-k / top-p sampling, one workgroup per row: the k largest of the chunks'
// candidates, then, a thread per selected token, their softmax, the top-p nucleus (the
// shortest prefix whose probability reaches top_p), renormalised, and the token drawn with the
// row's seeded uniform number.
#include "kernels/common/workgroup_reduce.glsl"

layout(constant_id = 1) const uint ITEMS = 8;
layout(constant_id = 2) const uint MAX_K = 64;

layout(push_constant) uniform Shape { uint vocab, k, candidates, seed; float top_p; } s;

layout(std430, binding = 0) readonly buffer CandidateValues { float cand_val[]; };
layout(std430, binding = 1) readonly buffer CandidateTokens { uint cand_tok[]; };
layout(std430, binding = 2) writeonly buffer TopTokens { uint top_tok[]; };
layout(std430, binding = 3) writeonly buffer TopProbs { float top_prob[]; };
layout(std430, binding = 4) writeonly buffer Chosen { uint chosen[]; };

float val[ITEMS];
#include "topk_select.glsl"

float tok[ITEMS];
float token(uint i) { return tok[i]; }

shared float sel_val[MAX_K];
shared uint sel_tok[MAX_K];
shared float weight[MAX_K];  // exp(value - largest)
shared float prefix[MAX_K];  // inclusive prefix sums of weight
shared uint kept;

// The row's uniform number in [0, 1): a PCG hash of (seed, row), the same as the CPU's.
float uniform01(uint seed, uint row) {
  uint h = seed ^ (row * 0x9e3779b9u);
  h = h * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  h = (h >> 22u) ^ h;
  return float(h >> 8) * (1.0 / 16777216.0);
}

void main() {
  const uint row = gl_WorkGroupID.x, lid = gl_LocalInvocationID.x;
  const uint n = s.candidates, base = row * n;  // per row: the chunks' slots, some padding
  for (uint i = 0; i < ITEMS; ++i) {
    const uint c = i * gl_WorkGroupSize.x + lid;
    const uint t = c < n ? cand_tok[base + c] : 0xffffffffu;
    val[i] = c < n && t != 0xffffffffu ? cand_val[base + c] : NEG_INF;
    tok[i] = c < n && t != 0xffffffffu ? float(t) : float(s.vocab + c);  // padding: its own token
  }
#define EMIT_SELECTED(r, v, t) \
  {                            \
    sel_val[r] = v;            \
    sel_tok[r] = uint(t);      \
  }
  SELECT_TOP_K(s.k, EMIT_SELECTED)
  // Thread r < k owns the r-th largest. The prefix sums are k-term loops, run side by side.
  if (lid < s.k) weight[lid] = exp(sel_val[lid] - sel_val[0]);
  if (lid == 0) kept = s.k;
  barrier();
  if (lid < s.k) {
    float sum = 0.0;
    for (uint j = 0; j <= lid; ++j) sum += weight[j];
    prefix[lid] = sum;
  }
  barrier();
  const float total = prefix[s.k - 1];
  // The nucleus ends where the cumulative probability first reaches top_p.
  if (lid < s.k && prefix[lid] / total >= s.top_p && (lid == 0 || prefix[lid - 1] / total < s.top_p))
    kept = lid + 1;
  barrier();
  if (lid >= s.k) return;
  const float kept_total = prefix[kept - 1];
  const uint out_base = row * s.k;
  top_tok[out_base + lid] = sel_tok[lid];
  top_prob[out_base + lid] = lid < kept ? weight[lid] / kept_total : 0.0;
  // The drawn token: the first whose cumulative probability exceeds u, else the nucleus's last.
  const float u = uniform01(s.seed, row);
  const bool above_before = lid == 0 || u >= prefix[lid - 1] / kept_total;
  if (lid < kept && above_before && (u < prefix[lid] / kept_total || lid == kept - 1))
    chosen[row] = sel_tok[lid];
}
