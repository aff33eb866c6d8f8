// q4_0_matvec: y = W x with W in GGML Q4_0 blocks (4.5 bits per weight), dequantised on the
// fly: the batch-1 decode product of a 4-bit quantised model. Memory-bound at 0.5625 bytes
// per weight; compare with f16_matvec of the same shape for the dequantisation overhead.
#include <bit>
#include <random>

#include "kernels/common/q4_0.h"
#include "kernels/common/row_plan.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;
namespace q4_0 = perfgate::kernels::q4_0;

namespace {

std::size_t blocks_per_row(const Params& p) { return std::size_t(p["k"]) / q4_0::kBlockWeights; }

// 16 lanes accumulate across blocks (no horizontal sum per block): lane j takes elements j
// and j + 16 of every block.
float row_dot(const std::uint8_t* __restrict row, const float* __restrict x, std::size_t blocks) {
  float lanes[16] = {};
  for (std::size_t b = 0; b < blocks; ++b, row += q4_0::kBlockBytes, x += q4_0::kBlockWeights) {
    const std::uint8_t* q = row + 2;
    const float d = q4_0::scale(row);
#pragma omp simd
    for (int j = 0; j < 16; ++j)
      lanes[j] += d * (float((q[j] & 0x0f) - 8) * x[j] + float((q[j] >> 4) - 8) * x[j + 16]);
  }
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}

}  // namespace

PERFGATE_KERNEL(q4_0_matvec) {
  KernelDef def =
      matvec_kernel("q4_0_matvec",
                    "y = W x, W m x k in GGML Q4_0 (18 bytes per 32 weights), fused dequantisation", 64, 32,
                    "q4_0_matvec/q4_0_matvec",  // k: rows of whole words
                    q4_0::row_words, q4_0::row_words_constant)
          .buffers([](const Params& p) {
            const auto m = std::size_t(p["m"]), k = std::size_t(p["k"]);
            return std::vector<BufferSpec>{
                {"w", ElementType::u8, m * blocks_per_row(p) * q4_0::kBlockBytes, BufferRole::input},
                {"x", ElementType::f32, k, BufferRole::input},
                {"y", ElementType::f32, m, BufferRole::output}};
          })
          .fill([](const Params&, Buffers& buf, Rng& rng) {
            q4_0::fill_random(buf.get<std::uint8_t>("w"), rng);
            std::uniform_real_distribution<float> input(-1.0f, 1.0f);
            for (float& v : buf.get<float>("x")) v = input(rng);
          })
          .cost([](const Params& p) {
            const double m = double(p["m"]), k = double(p["k"]);
            return Cost{m * double(blocks_per_row(p) * q4_0::kBlockBytes) + 4 * k, 4 * m, 2 * m * k};
          })
          .reference(
              [](const Params& p, const Buffers& in) {
                const std::size_t blocks = blocks_per_row(p);
                auto w = in.get<std::uint8_t>("w");
                auto x = in.get<float>("x");
                auto y = q4_0::reference_rows(
                    w, std::size_t(p["m"]), blocks, [&](const std::uint8_t* block, std::size_t b) {
                      double sum = 0;
                      for (std::size_t e = 0; e < q4_0::kBlockWeights; ++e)
                        sum += double(q4_0::weight(block, e)) * x[b * q4_0::kBlockWeights + e];
                      return sum;
                    });
                return expect("y", std::move(y));
              },
              1e-4,
              "dequantisation is exact in float32 (an fp16 scale times an integer in [-8, 7] needs "
              "15 bits), so only the float32 sums round: per block, then over k/32 scaled block "
              "sums, a random walk of eps/2 = 6e-8 steps, ~4e-6 relative at k = 4096; 1e-4 "
              "leaves 25x")
          .cpu([](const Params& p, Buffers& buf) {
            const std::size_t blocks = blocks_per_row(p);
            const float* x = buf.get<float>("x").data();
            q4_0::cpu_rows(p, buf, [&](const std::uint8_t* row) { return row_dot(row, x, blocks); });
          });
  // Where it fits, a subgroup per 2 rows (q4_0_matvec_rows.comp), no shared memory; else the
  // workgroup per row (q4_0_matvec_shared.comp).
  const KernelDef generic = def;
  return def.vulkan([generic](const Params& p, const DeviceLimits& limits) {
    if (!fits_subgroup_rows(p, limits, 8))  // 8 lanes per pair of blocks
      return generic.vulkan_plan(p, without_subgroups(limits));
    return VulkanPlan{{subgroup_rows_dispatch("q4_0_matvec", p, limits, p["k"] / 8)}};
  });
}
