// The CPU GEMM (kernels/common/gemm_cpu.h) against its float64 reference on every shape that
// crosses one of its blocks' edges (register block, A block, k-block, thread's columns), with B
// as stored and transposed, padded row strides, alpha, and batches; C poisoned before. This unit
// is compiled for the baseline instruction set, the kernels' own copy for -march=native: the
// suite's matmul cases check that one.
#include "kernels/common/gemm_cpu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace perfgate {
namespace {

using kernels::GemmShape;
namespace gemm_detail = kernels::detail;

// Elements of the `batch` products that differ from the reference by more than 1e-5 relative.
std::int64_t gemm_mismatches(const GemmShape& s, std::int64_t batch, std::mt19937& rng) {
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  const std::int64_t a_stride = s.m * s.lda, b_stride = (s.transpose_b ? s.n : s.k) * s.ldb,
                     c_stride = s.m * s.ldc;
  std::vector<float> a(std::size_t(a_stride * batch)), b(std::size_t(b_stride * batch));
  std::vector<float> c(std::size_t(c_stride * batch), std::numeric_limits<float>::quiet_NaN());
  for (float& x : a) x = value(rng);
  for (float& x : b) x = value(rng);
  if (batch == 1)
    kernels::gemm(s, a.data(), b.data(), c.data());
  else
    kernels::gemm_batched(s, batch, a.data(), a_stride, b.data(), b_stride, c.data(), c_stride);
  std::int64_t wrong = 0;
  for (std::int64_t q = 0; q < batch; ++q)
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) {
        const double want =
            kernels::gemm_reference_at(s, a.data() + q * a_stride, b.data() + q * b_stride, i, j);
        const double got = c[std::size_t(q * c_stride + i * s.ldc + j)];
        if (!(std::abs(got - want) <= 1e-5 * (1 + std::sqrt(double(s.k))))) ++wrong;
      }
  return wrong;
}

TEST(KernelsGemmCpu, MatchesTheReferenceAcrossEveryBlockEdge) {
  std::mt19937 rng(7);
  const std::int64_t mr = gemm_detail::kMR, nr = gemm_detail::kNR, kc = gemm_detail::kKC,
                     mc = gemm_detail::kMC;
  for (const std::int64_t m : {std::int64_t(1), mr - 1, mr + 1, mc + 3})
    for (const std::int64_t n : {std::int64_t(1), nr + 5, 3 * nr})
      for (const std::int64_t k : {std::int64_t(1), kc + 7})
        for (const bool transpose : {false, true})
          for (const std::int64_t batch : {std::int64_t(1), std::int64_t(3)}) {
            const GemmShape s{m, n, k, k + 1, (transpose ? k : n) + 3, n + 2, transpose, 0.5f};
            EXPECT_EQ(gemm_mismatches(s, batch, rng), 0)
                << "m=" << m << " n=" << n << " k=" << k << " transpose_b=" << transpose
                << " batch=" << batch;
          }
}

TEST(KernelsGemmCpu, RegisterBlockFitsTheMachinesRegisters) {
  // Accumulators, one B row and a broadcast of A: more than the 16 (32 with AVX-512) vector
  // registers spill to the stack at every step of k.
#if defined(__AVX512F__)
  constexpr std::int64_t registers = 32, width = 16;
#elif defined(__AVX__)
  constexpr std::int64_t registers = 16, width = 8;
#else
  constexpr std::int64_t registers = 16, width = 4;
#endif
  EXPECT_EQ(gemm_detail::kVectorFloats, width);
  EXPECT_LE(gemm_detail::kMR * gemm_detail::kNV + gemm_detail::kNV + 1, registers);
}

}  // namespace
}  // namespace perfgate
