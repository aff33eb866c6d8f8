#pragma once
// C = alpha * A * B (or A * B^T) in float32 on the CPU, for matmul and the attention stages.
// Column panels of B (KC x NR) are packed contiguously, and a 4 x 32 register-blocked
// micro-kernel accumulates over them; the panels are split over the OpenMP threads.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace perfgate::kernels {

struct GemmShape {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t lda = 0, ldb = 0, ldc = 0;  // row strides in elements
  bool transpose_b = false;                // B is stored n x k: B(kk, j) = b[j * ldb + kk]
  float alpha = 1.0f;
};

namespace detail {
// GNU vector extension: 16 floats, one AVX-512 register (two AVX2 registers elsewhere). Moved
// with memcpy, never passed to or returned from a function: no -Wpsabi without AVX-512.
typedef float v16 __attribute__((vector_size(64)));
constexpr std::int64_t kMR = 4, kNR = 32, kKC = 256;
}  // namespace detail

// Single-threaded over the column panels [panel_begin, panel_end) of NR columns each.
inline void gemm_panels(const GemmShape& s, const float* a, const float* b, float* c,
                        std::int64_t panel_begin, std::int64_t panel_end) {
  using namespace detail;
  alignas(64) float panel[kKC * kNR];
  alignas(64) float tile[kMR * kNR];
  for (std::int64_t p = panel_begin; p < panel_end; ++p) {
    const std::int64_t j0 = p * kNR;
    const std::int64_t nc = std::min(kNR, s.n - j0);
    for (std::int64_t k0 = 0; k0 < s.k; k0 += kKC) {
      const std::int64_t kc = std::min(kKC, s.k - k0);
      for (std::int64_t kk = 0; kk < kc; ++kk)  // pack, zero-padding the ragged right edge
        for (std::int64_t j = 0; j < kNR; ++j)
          panel[kk * kNR + j] =
              j < nc ? (s.transpose_b ? b[(j0 + j) * s.ldb + k0 + kk] : b[(k0 + kk) * s.ldb + j0 + j]) : 0.0f;
      const bool first = k0 == 0, last = k0 + kc == s.k;
      for (std::int64_t i0 = 0; i0 < s.m; i0 += kMR) {
        const std::int64_t mc = std::min(kMR, s.m - i0);
        const float* ar[kMR];
        for (std::int64_t r = 0; r < kMR; ++r) ar[r] = a + (i0 + std::min(r, mc - 1)) * s.lda + k0;
        v16 acc[kMR][2] = {};
        for (std::int64_t kk = 0; kk < kc; ++kk) {
          v16 b0, b1;
          std::memcpy(&b0, panel + kk * kNR, sizeof b0);
          std::memcpy(&b1, panel + kk * kNR + 16, sizeof b1);
          for (std::int64_t r = 0; r < kMR; ++r) {
            const float av = ar[r][kk];
            acc[r][0] += av * b0;
            acc[r][1] += av * b1;
          }
        }
        for (std::int64_t r = 0; r < kMR; ++r) {
          std::memcpy(tile + r * kNR, &acc[r][0], sizeof acc[r][0]);
          std::memcpy(tile + r * kNR + 16, &acc[r][1], sizeof acc[r][1]);
        }
        for (std::int64_t r = 0; r < mc; ++r) {
          float* crow = c + (i0 + r) * s.ldc + j0;
          for (std::int64_t j = 0; j < nc; ++j) {
            const float sum = first ? tile[r * kNR + j] : crow[j] + tile[r * kNR + j];
            crow[j] = last ? s.alpha * sum : sum;
          }
        }
      }
    }
  }
}

// Parallel over the column panels with the calling OpenMP team, or a new one.
inline void gemm(const GemmShape& s, const float* a, const float* b, float* c) {
  const std::int64_t panels = (s.n + detail::kNR - 1) / detail::kNR;
#pragma omp parallel for schedule(static)
  for (std::int64_t p = 0; p < panels; ++p) gemm_panels(s, a, b, c, p, p + 1);
}

// `batch` independent products: product i reads a + i * a_stride, b + i * b_stride and writes
// c + i * c_stride.
inline void gemm_batched(const GemmShape& s, std::int64_t batch, const float* a, std::int64_t a_stride,
                         const float* b, std::int64_t b_stride, float* c, std::int64_t c_stride) {
  const std::int64_t panels = (s.n + detail::kNR - 1) / detail::kNR;
#pragma omp parallel for collapse(2) schedule(static)
  for (std::int64_t i = 0; i < batch; ++i)
    for (std::int64_t p = 0; p < panels; ++p)
      gemm_panels(s, a + i * a_stride, b + i * b_stride, c + i * c_stride, p, p + 1);
}

// float64 reference of one output element, for references and sampled checks.
inline double gemm_reference_at(const GemmShape& s, const float* a, const float* b, std::int64_t i,
                                std::int64_t j) {
  double sum = 0;
  for (std::int64_t kk = 0; kk < s.k; ++kk)
    sum += double(a[i * s.lda + kk]) * double(s.transpose_b ? b[j * s.ldb + kk] : b[kk * s.ldb + j]);
  return double(s.alpha) * sum;
}

}  // namespace perfgate::kernels
