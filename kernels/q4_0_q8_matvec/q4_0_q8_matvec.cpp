// q4_0_q8_matvec: y = W x with W in GGML Q4_0 blocks and x already quantised to 8-bit blocks
// (32 int8 values and a float32 scale each, GGML's Q8 activations). Each block's 32 products
// are integers, summed exactly by packed 8-bit dot products (DP4A on NVIDIA), and scaled once:
// the batch-1 decode path of 4-bit inference engines, with far fewer instructions per weight
// than q4_0_matvec's float32 decode, so it can run at the memory's speed.
#include <cmath>
#include <random>
#include <vector>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

#include "kernels/common/q4_0.h"
#include "kernels/common/row_plan.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;
namespace q4_0 = perfgate::kernels::q4_0;

namespace {

constexpr const char* kName = "q4_0_q8_matvec";

std::size_t blocks_per_row(const Params& p) { return std::size_t(p["k"]) / q4_0::kBlockWeights; }

// One row: per block, sum_j (nibble_j - 8) xq_j as an exact integer, times both scales.
#if defined(__AVX2__) && defined(__FMA__)
// start + the sums of 4 adjacent products of unsigned bytes u and signed bytes s, per 32-bit
// lane: one VNNI instruction, or on AVX2 (x86-64-v3) pairs to 16 bits then pairs to 32
// (exact here: nibbles times bytes, |15 * 127 * 2| fits 16 bits).
inline __m256i dot_u8_s8(__m256i start, __m256i u, __m256i s) {
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
  return _mm256_dpbusd_epi32(start, u, s);
#else
  return _mm256_add_epi32(start, _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1)));
#endif
}

// 32 unsigned nibbles times 32 signed bytes in 8 lanes of 4 products, the lanes' bias -8 sum xq
// precomputed per block, since every row shares it; 8 float lanes accumulate across blocks.
float row_dot(const std::uint8_t* row, const std::int8_t* xq, const float* xd, const std::int32_t* bias,
              std::size_t blocks) {
  const __m128i low = _mm_set1_epi8(0x0f);
  __m256 acc = _mm256_setzero_ps();
  for (std::size_t b = 0; b < blocks; ++b, row += q4_0::kBlockBytes) {
    const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 2));
    const __m256i nibbles = _mm256_set_m128i(_mm_and_si128(_mm_srli_epi16(q, 4), low), _mm_and_si128(q, low));
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xq + b * q4_0::kBlockWeights));
    const __m256i start = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8 * b));
    const __m256i dot = dot_u8_s8(start, nibbles, x);
    acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot), _mm256_set1_ps(q4_0::scale(row) * xd[b]), acc);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, acc);
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}

std::vector<std::int32_t> block_biases(const std::int8_t* xq, std::size_t blocks) {
  std::vector<std::int32_t> bias(8 * blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xq + b * q4_0::kBlockWeights));
    const __m256i sums = dot_u8_s8(_mm256_setzero_si256(), _mm256_set1_epi8(8), x);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bias.data() + 8 * b),
                        _mm256_sub_epi32(_mm256_setzero_si256(), sums));
  }
  return bias;
}
#else
float row_dot(const std::uint8_t* row, const std::int8_t* xq, const float* xd, const std::int32_t*,
              std::size_t blocks) {
  float sum = 0;
  for (std::size_t b = 0; b < blocks; ++b, row += q4_0::kBlockBytes, xq += q4_0::kBlockWeights) {
    const std::uint8_t* q = row + 2;
    int dot = 0;
#pragma omp simd reduction(+ : dot)
    for (int j = 0; j < 16; ++j) dot += ((q[j] & 0x0f) - 8) * xq[j] + ((q[j] >> 4) - 8) * xq[j + 16];
    sum += q4_0::scale(row) * xd[b] * float(dot);
  }
  return sum;
}

std::vector<std::int32_t> block_biases(const std::int8_t*, std::size_t) { return {}; }
#endif

// x in [-1, 1] quantised per block as GGML's quantize_row_q8_0: d = max |x| / 127, q = round(x / d).
void quantise_input(std::span<std::int8_t> xq, std::span<float> xd, Rng& rng) {
  std::uniform_real_distribution<float> input(-1.0f, 1.0f);
  float x[q4_0::kBlockWeights];
  for (std::size_t b = 0; b < xd.size(); ++b) {
    float amax = 0;
    for (float& v : x) amax = std::max(amax, std::fabs(v = input(rng)));
    xd[b] = amax / 127;
    const float inverse = amax > 0 ? 127 / amax : 0;
    for (std::size_t j = 0; j < q4_0::kBlockWeights; ++j)
      xq[b * q4_0::kBlockWeights + j] = std::int8_t(std::lround(x[j] * inverse));
  }
}

}  // namespace

PERFGATE_KERNEL(q4_0_q8_matvec) {
  KernelDef def =
      matvec_kernel(kName, "y = W x, W m x k in GGML Q4_0, x in 8-bit blocks (Q8): integer dot products", 64,
                    32, "q4_0_q8_matvec/q4_0_q8_matvec",  // k: whole pairs of blocks
                    q4_0::row_words, q4_0::row_words_constant, {"w", "xq", "xd", "y"})
          .buffers([](const Params& p) {
            const auto m = std::size_t(p["m"]), k = std::size_t(p["k"]), blocks = blocks_per_row(p);
            return std::vector<BufferSpec>{
                {"w", ElementType::u8, m * blocks * q4_0::kBlockBytes, BufferRole::input},
                {"xq", ElementType::u8, k, BufferRole::input},  // int8
                {"xd", ElementType::f32, blocks, BufferRole::input},
                {"y", ElementType::f32, m, BufferRole::output}};
          })
          .fill([](const Params&, Buffers& buf, Rng& rng) {
            q4_0::fill_random(buf.get<std::uint8_t>("w"), rng);
            quantise_input(buf.get<std::int8_t>("xq"), buf.get<float>("xd"), rng);
          })
          .cost([](const Params& p) {
            const double m = double(p["m"]), k = double(p["k"]), blocks = double(blocks_per_row(p));
            return Cost{m * blocks * double(q4_0::kBlockBytes) + k + 4 * blocks, 4 * m, 2 * m * k};
          })
          .reference(
              [](const Params& p, const Buffers& in) {
                const std::size_t blocks = blocks_per_row(p);
                auto w = in.get<std::uint8_t>("w");
                auto xq = in.get<std::int8_t>("xq");
                auto xd = in.get<float>("xd");
                auto y = q4_0::reference_rows(
                    w, std::size_t(p["m"]), blocks, [&](const std::uint8_t* block, std::size_t b) {
                      double dot = 0;
                      for (std::size_t e = 0; e < q4_0::kBlockWeights; ++e)
                        dot += double(q4_0::quant(block, e) - 8) * xq[b * q4_0::kBlockWeights + e];
                      return double(q4_0::scale(block)) * xd[b] * dot;
                    });
                return expect("y", std::move(y));
              },
              1e-5,
              "each block's dot product is an exact integer (|sum| < 2^15); the two scales and "
              "their product with it round to float32 (3 x eps/2), then k/32 block terms are "
              "summed in float32: a random walk of 6e-8 steps, ~1e-6 relative at k = 4096; 1e-5 "
              "leaves 10x")
          .cpu([](const Params& p, Buffers& buf) {
            const std::size_t blocks = blocks_per_row(p);
            const std::int8_t* xq = buf.get<std::int8_t>("xq").data();
            const float* xd = buf.get<float>("xd").data();
            const auto bias = block_biases(xq, blocks);
            q4_0::cpu_rows(
                p, buf, [&](const std::uint8_t* row) { return row_dot(row, xq, xd, bias.data(), blocks); });
          });
  // A subgroup per 2 rows with packed dot products where the device has both; else a
  // workgroup per row with the dot products unpacked (q4_0_q8_matvec_shared.comp).
  const KernelDef generic = def;
  return def.vulkan([generic](const Params& p, const DeviceLimits& limits) {
    if (!limits.integer_dot_product || !fits_subgroup_rows(p, limits, 8))
      return generic.vulkan_plan(p, without_subgroups(limits));
    return VulkanPlan{{subgroup_rows_dispatch(kName, p, limits, p["k"] / 8, {"w", "xq", "xd", "y"})}};
  });
}
