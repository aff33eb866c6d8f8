// Selection of the k largest (value, token) pairs of a workgroup, ITEMS per thread, ties going
// to the smaller token. Included by topk_partial.glsl and topk_merge.glsl after val[] is
// declared; SELECT_TOP_K (the merge's) needs workgroup_reduce.glsl and a function token(i),
// the token of val[i] as a float (exact below 2^24; padding is NEG_INF with a token of its
// own, never a real one). A value taken by the fallback's rounds becomes NEG_INF: emitted with
// the value NEG_INF, a token is padding.
//
// A threshold first, so that almost every value is dropped by one comparison: T, from the
// threads' maxima (maxima_threshold), has at least k distinct values at or above it, so nothing
// below T is in the top k. Then the survivors (a few k for a smooth distribution: with 32
// values per thread and 128 threads, 1-2% of a Gaussian row) are ranked against each other, and
// the rank is the output position. Where more survive than there are threads (many equal
// values, or fewer than k real ones), k rounds of workgroup argmax select instead: correct for
// any input, only slower.
#define NEG_INF (-uintBitsToFloat(0x7f800000u))
#define POS_INF uintBitsToFloat(0x7f800000u)

shared float threshold;
shared float survivor_val[gl_WorkGroupSize.x];
shared float survivor_tok[gl_WorkGroupSize.x];
shared uint survivor_count;

bool ranks_before(float v, float t, float other_v, float other_t) {
  return v > other_v || (v == other_v && t < other_t);
}

#ifdef SUBGROUP
shared float subgroup_cut[gl_WorkGroupSize.x];
shared uint subgroup_taken[gl_WorkGroupSize.x];

// A threshold with at least k of the workgroup's values at or above it (k <= wg), or NEG_INF
// where fewer than k real (finite) thread maxima exist. Each subgroup takes its c largest real
// maxima, c = ceil(k / subgroups) (fewer if it has fewer real ones), each lane ranking its
// maximum by shuffles (independent, so pipelined; ties to the lower lane); the threshold is the
// smallest value taken. A little looser than the k-th largest of all the maxima, but no loop
// over the workgroup's maxima in shared memory (on an H100: the partial pass 22 -> 17 us at
// batch 64). Subgroups that hold only padding take nothing, so padding never lowers it. Needs
// whole subgroups. Ends with a barrier.
float maxima_threshold(uint k) {
  float mine = NEG_INF;
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) mine = max(mine, val[i]);
  const uint c = (k + gl_NumSubgroups - 1u) / gl_NumSubgroups, lane = gl_SubgroupInvocationID;
  uint rank = 0u;
  for (uint j = 0; j < gl_SubgroupSize; ++j) {
    const float other = subgroupShuffle(mine, j);
    rank += uint(other > mine || (other == mine && j < lane));
  }
  const uint taken = min(c, subgroupAdd(uint(mine > NEG_INF)));  // real maxima rank first
  const float smallest = subgroupMax(taken > 0u && rank == taken - 1u ? mine : NEG_INF);
  if (subgroupElect()) {
    subgroup_cut[gl_SubgroupID] = taken > 0u ? smallest : POS_INF;
    subgroup_taken[gl_SubgroupID] = taken;
  }
  barrier();
  float lowest = POS_INF;
  uint total = 0u;
  for (uint i = 0; i < gl_NumSubgroups; ++i) {
    lowest = min(lowest, subgroup_cut[i]);
    total += subgroup_taken[i];
  }
  return total >= k ? lowest : NEG_INF;
}
#else
shared float thread_max[gl_WorkGroupSize.x];

// The k-th largest of the threads' maxima of val[] (ties to the lower thread), k <= wg: at
// least k of the workgroup's values are at or above it. Between two barriers.
float maxima_threshold(uint k) {
  const uint lid = gl_LocalInvocationID.x;
  float mine = NEG_INF;
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) mine = max(mine, val[i]);
  thread_max[lid] = mine;
  barrier();
  uint above = 0u;
  for (uint j = 0; j < gl_WorkGroupSize.x; ++j) {
    const float other = thread_max[j];
    above += uint(other > mine || (other == mine && j < lid));
  }
  if (above == k - 1u) threshold = mine;
  barrier();
  return threshold;
}
#endif

// Calls emit(rank, value, token) for the k largest, rank 0 the largest, from whichever thread
// holds each; returns after a barrier, so the emitted values are visible to the workgroup.
#define SELECT_TOP_K(k, emit)                                                     \
  {                                                                               \
    const uint lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;            \
    if (lid == 0) survivor_count = 0u;                                            \
    const float cut = maxima_threshold(k);                                        \
    for (uint i = 0; i < ITEMS; ++i)                                              \
      if (val[i] >= cut) {                                                        \
        const uint at = atomicAdd(survivor_count, 1u);                            \
        if (at < wg) {                                                            \
          survivor_val[at] = val[i];                                              \
          survivor_tok[at] = token(i);                                            \
        }                                                                         \
      }                                                                           \
    barrier();                                                                    \
    const uint survivors = survivor_count;                                        \
    if (survivors <= wg) {                                                        \
      if (lid < survivors) {                                                      \
        const float v = survivor_val[lid], t = survivor_tok[lid];                 \
        uint rank = 0u;                                                           \
        for (uint j = 0; j < survivors; ++j)                                      \
          rank += uint(ranks_before(survivor_val[j], survivor_tok[j], v, t));     \
        if (rank < (k)) emit(rank, v, t);                                         \
      }                                                                           \
    } else {                                                                      \
      float best = NEG_INF, best_tok = POS_INF;                                   \
      for (uint i = 0; i < ITEMS; ++i)                                            \
        if (ranks_before(val[i], token(i), best, best_tok)) {                     \
          best = val[i];                                                          \
          best_tok = token(i);                                                    \
        }                                                                         \
      for (uint r = 0; r < (k); ++r) {                                            \
        const float m = workgroup_max(best);                                      \
        const float t = -workgroup_max(best == m ? -best_tok : NEG_INF);          \
        if (lid == 0) emit(r, m, t);                                              \
        if (best == m && best_tok == t) {                                         \
          best = NEG_INF;                                                         \
          best_tok = POS_INF;                                                     \
          for (uint i = 0; i < ITEMS; ++i) {                                      \
            if (token(i) == t) val[i] = NEG_INF;                                  \
            if (ranks_before(val[i], token(i), best, best_tok)) {                 \
              best = val[i];                                                      \
              best_tok = token(i);                                                \
            }                                                                     \
          }                                                                       \
        }                                                                         \
      }                                                                           \
    }                                                                             \
    barrier();                                                                    \
  }
