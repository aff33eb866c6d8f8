// Partial pass of top-k sampling: workgroup (chunk, row) reads its chunk, ROUNDS rounds of
// wg * ITEMS logits, and writes the candidates that may be among the row's k largest, with
// their token indices, to its `slots` candidate slots; the merge pass selects from them.
//
// One threshold per chunk, from the first round's thread maxima (maxima_threshold,
// topk_select.glsl), has at least k logits at or above it, so one comparison drops almost every
// logit. The survivors of every round are appended to a shared buffer of 2 wg entries; when it
// overflows, it is cut to its k best (every entry ranked against every other) and the threshold
// rises to the k-th of them. At the end the survivors are written unranked if they fit the
// slots (2 wg with several rounds: no cut unless the buffer overflowed), else cut to k first.
// Correct for any input (equal or ascending logits overflow again and again), only slower. A
// logit of -inf is masked: never a candidate.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 8;  // at most 32
layout(constant_id = 2) const uint ROUNDS = 1;
// Logits per load: 4 where every row starts 16-byte aligned (vocab % 4 == 0), else 1; a
// quarter of the load instructions (on an H100 no faster yet: see docs/performance.md).
layout(constant_id = 3) const uint VEC = 1;

layout(push_constant) uniform Shape { uint vocab, k, chunks, slots; } s;

layout(std430, binding = 0) readonly buffer Logits { float logits[]; };
layout(std430, binding = 0) readonly buffer Logits4 { vec4 logits4[]; };  // the same, by 4
layout(std430, binding = 1) writeonly buffer CandidateValues { float cand_val[]; };
layout(std430, binding = 2) writeonly buffer CandidateTokens { uint cand_tok[]; };

float val[ITEMS];
#include "topk_select.glsl"

// Two entries per thread: ranking and cutting the buffer is a thread per entry, twice.
shared vec2 kept[2 * gl_WorkGroupSize.x];  // (value, token)
shared uint kept_count;

uint round_first(uint round) {
  return (gl_WorkGroupID.x * ROUNDS + round) * ITEMS * gl_WorkGroupSize.x;
}

// val[i] holds the token round_first + VEC * (wg * (i / VEC) + lid) + i % VEC: consecutive
// threads load consecutive logits (VEC at a time), coalesced.
float token_of(uint round, uint i) {
  return float(round_first(round) + VEC * (gl_WorkGroupSize.x * (i / VEC) + gl_LocalInvocationID.x) + i % VEC);
}

// The next round's logits: loaded while the current one (val[]) is appended, so a workgroup's
// loads overlap its own selection, not only other workgroups'.
float next_val[ITEMS];

void load_round(uint round) {
  const uint first = round_first(round) + VEC * gl_LocalInvocationID.x, row_base = gl_WorkGroupID.y * s.vocab;
  [[unroll]] for (uint i = 0; i < ITEMS; i += VEC) {
    const uint t = first + i * gl_WorkGroupSize.x;  // t % VEC == 0 and vocab % VEC == 0
    if (VEC == 4) {
      const vec4 v = t < s.vocab ? logits4[(row_base + t) / 4] : vec4(NEG_INF);
      next_val[i] = v.x;
      next_val[i + 1] = v.y;
      next_val[i + 2] = v.z;
      next_val[i + 3] = v.w;
    } else {
      next_val[i] = t < s.vocab ? logits[row_base + t] : NEG_INF;
    }
  }
}

void take_round() {
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) val[i] = next_val[i];
}

// Padding (past the vocabulary) is NEG_INF, so it never survives either.
bool survives(float v, float cut) { return v >= cut && v > NEG_INF; }

// The rank of an entry among the buffer's first n: how many rank before it.
uint rank_in_kept(vec2 entry, uint n) {
  uint rank = 0u;
  for (uint j = 0; j < n; ++j) {
    const vec2 other = kept[j];
    rank += uint(ranks_before(other.x, other.y, entry.x, entry.y));
  }
  return rank;
}

// Keeps the k best of the buffer's first n > k entries, at their ranks, and returns the k-th,
// the new cut. Every thread calls it (barriers).
float cut_kept_to_k(uint n) {
  const uint lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
  const bool has_a = lid < n, has_b = lid + wg < n;
  const vec2 a = has_a ? kept[lid] : vec2(0.0), b = has_b ? kept[lid + wg] : vec2(0.0);
  const uint rank_a = has_a ? rank_in_kept(a, n) : n, rank_b = has_b ? rank_in_kept(b, n) : n;
  barrier();  // all read before any moves
  if (rank_a < s.k) kept[rank_a] = a;
  if (rank_b < s.k) kept[rank_b] = b;
  if (rank_a == s.k - 1u) threshold = a.x;
  if (rank_b == s.k - 1u) threshold = b.x;
  if (lid == 0) kept_count = s.k;
  barrier();
  return threshold;
}

// Appends this thread's survivors of the round to the buffer, cutting it as often as it
// overflows; `pending` marks the survivors not yet appended (bit i: val[i]; ITEMS <= 32).
// Returns after a barrier. Every loop over val[] is unrolled: an indexed val[] would live in
// memory, not in registers.
float append_survivors(uint round, float cut) {
  const uint capacity = 2 * gl_WorkGroupSize.x;
  uint pending = 0u;
  [[unroll]] for (uint i = 0; i < ITEMS; ++i)
    if (survives(val[i], cut)) pending |= 1u << i;
  for (;;) {
    const uint count = bitCount(pending);
    const uint at = count > 0u ? atomicAdd(kept_count, count) : 0u;
    const uint room = at < capacity ? min(count, capacity - at) : 0u;
    uint stored = 0u;
    [[unroll]] for (uint i = 0; i < ITEMS; ++i)
      if ((pending & (1u << i)) != 0u && stored < room) {
        kept[at + stored] = vec2(val[i], token_of(round, i));
        ++stored;
        pending &= ~(1u << i);
      }
    barrier();
    if (kept_count <= capacity) return cut;  // the same for every thread: nothing writes it now
    cut = cut_kept_to_k(capacity);
    [[unroll]] for (uint i = 0; i < ITEMS; ++i)
      if (!survives(val[i], cut)) pending &= ~(1u << i);
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
  if (lid == 0) kept_count = 0u;
  load_round(0);
  take_round();
  float cut = maxima_threshold(s.k);  // its barrier also publishes kept_count
  for (uint round = 0; round < ROUNDS; ++round) {
    if (round + 1 < ROUNDS) load_round(round + 1);  // in flight while this round is appended
    cut = append_survivors(round, cut);
    barrier();  // every thread has read kept_count before the next round adds to it
    take_round();
  }
  uint n = kept_count;  // the same for every thread: nothing writes it now
  if (n > s.slots) {
    cut_kept_to_k(n);
    n = s.k;
  }
  const uint out_base = (gl_WorkGroupID.y * s.chunks + gl_WorkGroupID.x) * s.slots;
  for (uint e = lid; e < s.slots; e += wg) {  // unranked: the merge selects
    const vec2 entry = e < n ? kept[e] : vec2(NEG_INF, 0.0);
    cand_val[out_base + e] = entry.x;
    cand_tok[out_base + e] = e < n ? uint(entry.y) : 0xffffffffu;  // padding
  }
}
