// f16_matvec: y = W x with fp16 weights, the batch-1 (decode) matrix-vector product of a
// half-precision model. Memory-bound: 2 bytes per weight, 2 flops. Beside q4_0_matvec (0.5625
// bytes per weight) it shows what the 4-bit dequantisation costs.
#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "kernels/common/row_plan.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

// One row: sum_j half(w[j]) * x[j], float32, 8 lanes x 2 accumulators (AVX-512 intrinsics
// trip GCC 12's -Wmaybe-uninitialized; the row is memory-bound either way).
float row_dot(const std::uint16_t* __restrict w, const float* __restrict x, std::int64_t k) {
  std::int64_t j = 0;
  float sum = 0;
#if defined(__F16C__) && defined(__FMA__)
  __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
  for (; j + 16 <= k; j += 16) {
    const __m256 w0 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j)));
    const __m256 w1 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j + 8)));
    acc0 = _mm256_fmadd_ps(w0, _mm256_loadu_ps(x + j), acc0);
    acc1 = _mm256_fmadd_ps(w1, _mm256_loadu_ps(x + j + 8), acc1);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_add_ps(acc0, acc1));
  for (float v : lanes) sum += v;
#endif
  for (; j < k; ++j) sum += from_half(w[j]) * x[j];
  return sum;
}

}  // namespace

PERFGATE_KERNEL(f16_matvec) {
  KernelDef def =
      matvec_kernel(
          "f16_matvec", "y = W x, W m x k fp16, x and y float32: batch-1 decode, memory-bound", 8, 32,
          "f16_matvec/f16_matvec",  // k: whole uvec4s of 8 halves
          [](std::int64_t k) { return k / 8; }, [](std::int64_t) { return std::vector<std::uint32_t>{}; })
          .buffers([](const Params& p) {
            const auto m = std::size_t(p["m"]), k = std::size_t(p["k"]);
            return std::vector<BufferSpec>{{"w", ElementType::f16, m * k, BufferRole::input},
                                           {"x", ElementType::f32, k, BufferRole::input},
                                           {"y", ElementType::f32, m, BufferRole::output}};
          })
          .cost([](const Params& p) {
            const double m = double(p["m"]), k = double(p["k"]);
            return Cost{2 * m * k + 4 * k, 4 * m, 2 * m * k};
          })
          .reference(
              [](const Params& p, const Buffers& in) {
                const auto k = std::size_t(p["k"]);
                auto w = in.get<std::uint16_t>("w");
                auto x = in.get<float>("x");
                std::vector<double> y(static_cast<std::size_t>(p["m"]));
                for (std::size_t i = 0; i < y.size(); ++i) {
                  double sum = 0;
                  for (std::size_t j = 0; j < k; ++j) sum += double(from_half(w[i * k + j])) * x[j];
                  y[i] = sum;
                }
                return expect("y", std::move(y));
              },
              1e-4,
              "fp16 weights widen to float32 exactly, so only the float32 sum of k products rounds: "
              "a random walk of eps/2 = 6e-8 steps, ~eps/2 * sqrt(k) = 4e-6 relative at k = 4096, "
              "in any order (lanes, threads, subgroups); 1e-4 leaves 25x")
          .cpu([](const Params& p, Buffers& buf) {
            const auto m = p["m"], k = p["k"];
            const std::uint16_t* w = buf.get<std::uint16_t>("w").data();
            const float* x = buf.get<float>("x").data();
            float* y = buf.get<float>("y").data();
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < m; ++i) y[i] = row_dot(w + i * k, x, k);
          });
  // Where it fits, a subgroup per 2 rows (f16_matvec_rows.comp), no workgroup barrier; else the
  // generic workgroup per row (f16_matvec_shared.comp).
  const KernelDef generic = def;
  return def.vulkan([generic](const Params& p, const DeviceLimits& limits) {
    if (!fits_subgroup_rows(p, limits)) return generic.vulkan_plan(p, without_subgroups(limits));
    return VulkanPlan{{subgroup_rows_dispatch("f16_matvec", p, limits, p["k"] / 8)}};
  });
}
