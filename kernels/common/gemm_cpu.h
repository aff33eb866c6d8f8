#pragma once
// C = alpha * A * B (or A * B^T) in float32 on the CPU, for matmul and the attention stages.
// Blocked as in Goto and van de Geijn's "Anatomy of high-performance matrix multiplication"
// (2008): per k-block of kKC, a thread packs B's columns it owns into panels of kNR columns, then
// per block of kMC rows packs A into slivers of kMR rows, and an kMR x kNR register block
// accumulates a sliver against a panel. The B panel under the register block stays in L1, the A
// block in L2; the columns are split over the OpenMP threads.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace perfgate::kernels {

struct GemmShape {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t lda = 0, ldb = 0, ldc = 0;  // row strides in elements
  bool transpose_b = false;                // B is stored n x k: B(kk, j) = b[j * ldb + kk]
  float alpha = 1.0f;
};

namespace detail {
// The register block per instruction set, chosen at compile time (-march=native by default):
// kMR x kNV accumulators, kNV vectors of a B row and one broadcast of A, all in registers.
// A vector wider than the machine's (16 floats on AVX2) is lowered by GCC through the stack,
// at scalar speed; each block here uses the machine's own width.
//   AVX-512, 32 zmm: 8 x 2 vectors of 16 (16 + 2 + 1 registers).
//   AVX/AVX2, 16 ymm: 6 x 2 vectors of 8 (12 + 2 + 1), as in BLIS's Haswell kernel.
//   SSE2 (x86-64 baseline) and others, 16 registers of 4 floats: 6 x 2 vectors of 4.
#if defined(__AVX512F__)
constexpr std::int64_t kVectorFloats = 16, kMR = 8, kNV = 2;
#elif defined(__AVX__)
constexpr std::int64_t kVectorFloats = 8, kMR = 6, kNV = 2;
#else
constexpr std::int64_t kVectorFloats = 4, kMR = 6, kNV = 2;
#endif
// GNU vector extension of the machine's width. Moved with memcpy, never passed to or returned
// from a function (no -Wpsabi).
typedef float vec __attribute__((vector_size(kVectorFloats * sizeof(float))));
constexpr std::int64_t kNR = kNV * kVectorFloats;
// A panel of B, kKC x kNR floats, is 32 KiB on AVX-512 (L1 is 32 to 48 KiB), 16 KiB on AVX2;
// an A block, kMC x kKC, 96 to 128 KiB (L2 is 512 KiB and up).
constexpr std::int64_t kKC = 256, kMC = 16 * kMR;

// What one thread packs: B's k-block for its columns, one A block.
struct GemmBuffers {
  std::vector<float> b, a;
};

// How a row of 16-bit inputs widens to float32 (matmul_f16, matmul_bf16): n values from `in`.
template <class T>
using Widen = void (*)(const T* in, float* out, std::int64_t n);

// The n values at `p` as float32: `p` itself for float32, else widened into `scratch`.
template <class T>
const float* as_floats(const T* p, std::int64_t n, float* scratch, Widen<T> widen) {
  if constexpr (std::is_same_v<T, float>) {
    return p;
  } else {
    widen(p, scratch, n);
    return scratch;
  }
}

// B(k0 + kk, j0 + j) for kk < kc, j < jc, into panels of kNR columns (kc x kNR each, row-major),
// zero past the last column.
template <class T>
void pack_b(const GemmShape& s, const T* b, std::int64_t k0, std::int64_t kc, std::int64_t j0,
            std::int64_t jc, float* out, Widen<T> widen) {
  float scratch[kKC > kNR ? kKC : kNR];
  for (std::int64_t p = 0; p * kNR < jc; ++p) {
    const std::int64_t pj = j0 + p * kNR, nc = std::min(kNR, jc - p * kNR);
    float* panel = out + p * kc * kNR;
    if (s.transpose_b) {
      for (std::int64_t j = 0; j < kNR; ++j) {
        const float* column = j < nc ? as_floats(b + (pj + j) * s.ldb + k0, kc, scratch, widen) : nullptr;
        for (std::int64_t kk = 0; kk < kc; ++kk) panel[kk * kNR + j] = column ? column[kk] : 0.0f;
      }
    } else {
      for (std::int64_t kk = 0; kk < kc; ++kk) {
        const float* row = as_floats(b + (k0 + kk) * s.ldb + pj, nc, scratch, widen);
        for (std::int64_t j = 0; j < kNR; ++j) panel[kk * kNR + j] = j < nc ? row[j] : 0.0f;
      }
    }
  }
}

// A(i0 + i, k0 + kk) for i < mc, kk < kc, into slivers of kMR rows (kc x kMR each: the kMR
// values of one kk side by side), zero past the last row.
template <class T>
void pack_a(const GemmShape& s, const T* a, std::int64_t i0, std::int64_t mc, std::int64_t k0,
            std::int64_t kc, float* out, Widen<T> widen) {
  float scratch[kKC];
  for (std::int64_t q = 0; q * kMR < mc; ++q) {
    float* sliver = out + q * kc * kMR;
    for (std::int64_t r = 0; r < kMR; ++r) {
      const std::int64_t i = q * kMR + r;
      const float* row = i < mc ? as_floats(a + (i0 + i) * s.lda + k0, kc, scratch, widen) : nullptr;
      for (std::int64_t kk = 0; kk < kc; ++kk) sliver[kk * kMR + r] = row ? row[kk] : 0.0f;
    }
  }
}

// The register block: tile = sliver^T * panel over kc, kMR x kNR, row-major.
inline void micro_kernel(const float* __restrict sliver, const float* __restrict panel, std::int64_t kc,
                         float* __restrict tile) {
  vec acc[kMR][kNV] = {};
  for (std::int64_t kk = 0; kk < kc; ++kk) {
    vec bv[kNV];
    for (std::int64_t v = 0; v < kNV; ++v)
      std::memcpy(&bv[v], panel + kk * kNR + v * kVectorFloats, sizeof(vec));
    for (std::int64_t r = 0; r < kMR; ++r) {
      const float av = sliver[kk * kMR + r];
      for (std::int64_t v = 0; v < kNV; ++v) acc[r][v] += av * bv[v];
    }
  }
  for (std::int64_t r = 0; r < kMR; ++r)
    for (std::int64_t v = 0; v < kNV; ++v)
      std::memcpy(tile + r * kNR + v * kVectorFloats, &acc[r][v], sizeof(vec));
}
}  // namespace detail

// Single-threaded over the columns [j_begin, j_end) of C; A and B of float32, or of 16-bit
// values `widen` turns into float32 as they are packed.
template <class T>
void gemm_columns(const GemmShape& s, const T* a, const T* b, float* c, std::int64_t j_begin,
                  std::int64_t j_end, detail::GemmBuffers& buffers, detail::Widen<T> widen = nullptr) {
  using namespace detail;
  const std::int64_t jc = j_end - j_begin;
  if (jc <= 0 || s.m <= 0) return;
  const std::int64_t panels = (jc + kNR - 1) / kNR;
  buffers.b.resize(std::size_t(panels * kNR * std::min(kKC, s.k)));
  buffers.a.resize(std::size_t((std::min(kMC, s.m) + kMR - 1) / kMR * kMR * std::min(kKC, s.k)));
  alignas(64) float tile[kMR * kNR];
  for (std::int64_t k0 = 0; k0 < s.k; k0 += kKC) {
    const std::int64_t kc = std::min(kKC, s.k - k0);
    const bool first = k0 == 0, last = k0 + kc == s.k;
    pack_b(s, b, k0, kc, j_begin, jc, buffers.b.data(), widen);
    for (std::int64_t i0 = 0; i0 < s.m; i0 += kMC) {
      const std::int64_t mc = std::min(kMC, s.m - i0);
      pack_a(s, a, i0, mc, k0, kc, buffers.a.data(), widen);
      for (std::int64_t p = 0; p < panels; ++p) {
        const std::int64_t j0 = j_begin + p * kNR, nc = std::min(kNR, j_end - j0);
        for (std::int64_t q = 0; q * kMR < mc; ++q) {
          micro_kernel(buffers.a.data() + q * kc * kMR, buffers.b.data() + p * kc * kNR, kc, tile);
          for (std::int64_t r = 0; r < std::min(kMR, mc - q * kMR); ++r) {
            float* crow = c + (i0 + q * kMR + r) * s.ldc + j0;
            const float* t = tile + r * kNR;
            for (std::int64_t j = 0; j < nc; ++j) {
              const float sum = first ? t[j] : crow[j] + t[j];
              crow[j] = last ? s.alpha * sum : sum;
            }
          }
        }
      }
    }
  }
}

namespace detail {
inline std::int64_t omp_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}
// The columns of chunk `t` of `chunks`, whole panels each.
inline std::pair<std::int64_t, std::int64_t> chunk_columns(std::int64_t n, std::int64_t t,
                                                           std::int64_t chunks) {
  const std::int64_t panels = (n + kNR - 1) / kNR;
  return {std::min(n, panels * t / chunks * kNR), std::min(n, panels * (t + 1) / chunks * kNR)};
}
}  // namespace detail

// Parallel over the columns of C, in contiguous whole panels per thread.
template <class T>
void gemm(const GemmShape& s, const T* a, const T* b, float* c, detail::Widen<T> widen = nullptr) {
  const std::int64_t panels = (s.n + detail::kNR - 1) / detail::kNR;
  const std::int64_t chunks = std::max<std::int64_t>(1, std::min(panels, detail::omp_threads()));
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < chunks; ++t) {
    thread_local detail::GemmBuffers buffers;  // kept per thread: no page faults per call
    const auto [j_begin, j_end] = detail::chunk_columns(s.n, t, chunks);
    gemm_columns(s, a, b, c, j_begin, j_end, buffers, widen);
  }
}

// `batch` independent products: product i reads a + i * a_stride, b + i * b_stride and writes
// c + i * c_stride. Parallel over the products, and over columns where they are fewer than the
// threads.
inline void gemm_batched(const GemmShape& s, std::int64_t batch, const float* a, std::int64_t a_stride,
                         const float* b, std::int64_t b_stride, float* c, std::int64_t c_stride) {
  const std::int64_t panels = (s.n + detail::kNR - 1) / detail::kNR;
  const std::int64_t threads = detail::omp_threads();
  const std::int64_t chunks =
      std::max<std::int64_t>(1, std::min(panels, (threads + batch - 1) / std::max<std::int64_t>(batch, 1)));
#pragma omp parallel
  {
    thread_local detail::GemmBuffers buffers;  // kept per thread: no page faults per call
#pragma omp for collapse(2) schedule(static)
    for (std::int64_t i = 0; i < batch; ++i)
      for (std::int64_t t = 0; t < chunks; ++t) {
        const auto [j_begin, j_end] = detail::chunk_columns(s.n, t, chunks);
        gemm_columns(s, a + i * a_stride, b + i * b_stride, c + i * c_stride, j_begin, j_end, buffers);
      }
  }
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
