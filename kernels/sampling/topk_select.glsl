// k rounds of workgroup argmax over values held in registers (ITEMS per thread): each round
// finds the largest value left, ties going to the smallest token index, records it and removes
// it. Included by topk_partial.glsl and topk_merge.glsl after workgroup_reduce.glsl; the
// includer defines ITEMS and fills val[] and tok[] (token indices as floats: exact below 2^24).
#define NEG_INF (-uintBitsToFloat(0x7f800000u))
#define POS_INF uintBitsToFloat(0x7f800000u)

float val[ITEMS];
float tok[ITEMS];

// Calls emit(round, value, token) for the k largest, in descending order.
#define SELECT_TOP_K(k, emit)                                                 \
  {                                                                           \
    float best = NEG_INF, best_tok = POS_INF;                                 \
    for (uint i = 0; i < ITEMS; ++i)                                          \
      if (val[i] > best || (val[i] == best && tok[i] < best_tok)) {           \
        best = val[i];                                                        \
        best_tok = tok[i];                                                    \
      }                                                                       \
    for (uint r = 0; r < (k); ++r) {                                          \
      const float m = workgroup_max(best);                                    \
      const float t = -workgroup_max(best == m ? -best_tok : NEG_INF);        \
      emit(r, m, t);                                                          \
      if (best == m && best_tok == t) {                                       \
        best = NEG_INF;                                                       \
        best_tok = POS_INF;                                                   \
        for (uint i = 0; i < ITEMS; ++i) {                                    \
          if (tok[i] == t) val[i] = NEG_INF;                                  \
          if (val[i] > best || (val[i] == best && tok[i] < best_tok)) {       \
            best = val[i];                                                    \
            best_tok = tok[i];                                                \
          }                                                                   \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }
