#pragma once
// The GGML Q4_0 block: 32 weights in 18 bytes, an fp16 scale d (little-endian) then 16 bytes of
// 4-bit quants. Byte j's low nibble is element j, its high nibble element j + 16, and
// element = (nibble - 8) * d.
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "perfgate/buffers.h"
#include "perfgate/params.h"

namespace perfgate::kernels::q4_0 {

constexpr std::size_t kBlockWeights = 32;
constexpr std::size_t kBlockBytes = 18;

inline float scale(const std::uint8_t* block) {
  const auto bits = std::uint16_t(block[0] | (block[1] << 8));
#if defined(__F16C__)
  return _cvtsh_ss(bits);
#else
  return from_half(bits);
#endif
}

inline int quant(const std::uint8_t* block, std::size_t element) {
  const std::uint8_t byte = block[2 + element % 16];
  return element < 16 ? (byte & 0x0f) : (byte >> 4);
}

inline float weight(const std::uint8_t* block, std::size_t element) {
  return float(quant(block, element) - 8) * scale(block);
}

// Writes one block from its scale and 32 nibbles (0..15).
inline void encode(std::uint8_t* block, std::uint16_t d_half, const std::uint8_t* nibbles) {
  block[0] = std::uint8_t(d_half & 0xff);
  block[1] = std::uint8_t(d_half >> 8);
  for (std::size_t j = 0; j < 16; ++j)
    block[2 + j] = std::uint8_t((nibbles[j] & 0x0f) | ((nibbles[j + 16] & 0x0f) << 4));
}

// GGML's quantize_row_q4_0 for one block: d = max / -8, where max is the value of largest
// magnitude (sign kept), nibble = min(15, int(x / d + 8.5)).
inline void quantize(std::uint8_t* block, const float* x) {
  float amax = 0, max = 0;
  for (std::size_t j = 0; j < kBlockWeights; ++j)
    if (x[j] > amax || -x[j] > amax) {
      amax = x[j] < 0 ? -x[j] : x[j];
      max = x[j];
    }
  const float d = max / -8.0f;
  const float id = d != 0 ? 1.0f / d : 0.0f;
  std::uint8_t nibbles[kBlockWeights];
  for (std::size_t j = 0; j < kBlockWeights; ++j) {
    const int q = int(x[j] * id + 8.5f);
    nibbles[j] = std::uint8_t(q > 15 ? 15 : q);
  }
  encode(block, to_half(d), nibbles);
}

// A row of k weights (k a multiple of 64) is whole 32-bit words, 9 per pair of blocks: what the
// workgroup-per-row shaders stage in shared memory, and their specialization constant.
inline std::int64_t row_words(std::int64_t k) { return 9 * k / 64; }
inline std::vector<std::uint32_t> row_words_constant(std::int64_t k) { return {std::uint32_t(row_words(k))}; }

// Random blocks: random nibbles and scales of either sign, |d| in [1/64, 1/8], so weights lie
// within +-1 like a quantised layer's, and no random bytes make a NaN or infinite scale.
template <class Rng>
void fill_random(std::span<std::uint8_t> blocks, Rng& rng) {
  std::uniform_real_distribution<float> magnitude(1.0f / 64, 1.0f / 8);
  std::uint8_t nibbles[kBlockWeights];
  for (std::size_t b = 0; b < blocks.size() / kBlockBytes; ++b) {
    for (auto& n : nibbles) n = std::uint8_t(rng() & 0x0f);
    const float d = (rng() & 1 ? 1.0f : -1.0f) * magnitude(rng);
    encode(blocks.data() + b * kBlockBytes, to_half(d), nibbles);
  }
}

// The float64 reference of a matrix-vector product over m rows of `blocks` blocks each:
// y_i = sum_b term(block, b), `term` giving block b's contribution to its row.
template <class Term>
std::vector<double> reference_rows(std::span<const std::uint8_t> w, std::size_t m, std::size_t blocks,
                                   Term term) {
  std::vector<double> y(m);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t b = 0; b < blocks; ++b) y[i] += term(w.data() + (i * blocks + b) * kBlockBytes, b);
  return y;
}

// The CPU matrix-vector product: y_i = row_dot(row i's first block) for the p["m"] rows of the
// buffer "w" (p["k"] weights each) into "y", the rows split statically over every core.
template <class RowDot>
void cpu_rows(const Params& p, Buffers& buf, RowDot row_dot) {
  const std::int64_t m = p["m"];
  const std::size_t row_bytes = std::size_t(p["k"]) / kBlockWeights * kBlockBytes;
  const std::uint8_t* w = buf.get<std::uint8_t>("w").data();
  float* y = buf.get<float>("y").data();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m; ++i) y[i] = row_dot(w + std::size_t(i) * row_bytes);
}

}  // namespace perfgate::kernels::q4_0
