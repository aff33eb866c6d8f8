#pragma once
// The attention kernels' float64 references, one output row at a time, and the check that
// compares every row of a small case or seeded sampled rows of a large one. Whole references at
// seq=4096, dmodel=4096 are hundreds of GFLOP of float64 over strided operands and held the
// H100 run past 200 s; a row costs O(seq * d) at most, so a few hundred rows check any shape in
// about a second, while a finiteness pass over every element still catches unwritten output.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "perfgate/kernel.h"

namespace perfgate::kernels {

// One output's reference: `rows` rows of `width` values; row(r, out) writes row r in float64.
struct RowReference {
  std::string output;
  std::int64_t rows = 0, width = 0;
  double row_flops = 0;  // the float64 work of one row: decides whether every row is checked
  std::function<void(std::int64_t, double*)> row;
};

// Every row when the whole reference is at most `full_flops`, else `samples` seeded rows (the
// first and last among them).
inline std::vector<std::int64_t> rows_to_check(std::int64_t rows, double row_flops,
                                               double full_flops = 1 << 30, std::int64_t samples = 256) {
  std::vector<std::int64_t> at;
  if (double(rows) * row_flops <= full_flops || rows <= samples) {
    for (std::int64_t r = 0; r < rows; ++r) at.push_back(r);
    return at;
  }
  std::set<std::int64_t> chosen{0, rows - 1};
  Rng rng(12345);
  while (std::int64_t(chosen.size()) < samples) chosen.insert(std::int64_t(rng() % std::uint64_t(rows)));
  return {chosen.begin(), chosen.end()};
}

// Relative L2 error of the checked rows of `actual` against the reference, after a finiteness
// test of every element (the harness poisons outputs with NaN).
inline CheckResult check_rows(const RowReference& ref, std::span<const float> actual, double tolerance) {
  const auto count = std::int64_t(actual.size());
  std::int64_t first_bad = count;
#pragma omp parallel for reduction(min : first_bad) schedule(static)
  for (std::int64_t i = 0; i < count; ++i)
    if (!std::isfinite(actual[std::size_t(i)])) first_bad = std::min(first_bad, i);
  if (first_bad < count)
    return {false, ref.output + ": element " + std::to_string(first_bad) + " is not finite"};
  const std::vector<std::int64_t> at = rows_to_check(ref.rows, ref.row_flops);
  double diff = 0, norm = 0;
  const auto n = std::int64_t(at.size());
#pragma omp parallel for reduction(+ : diff, norm) schedule(dynamic, 1)
  for (std::int64_t t = 0; t < n; ++t) {
    std::vector<double> expected(std::size_t(ref.width));
    const std::int64_t r = at[std::size_t(t)];
    ref.row(r, expected.data());
    for (std::int64_t j = 0; j < ref.width; ++j) {
      const double e = double(actual[std::size_t(r * ref.width + j)]) - expected[std::size_t(j)];
      diff += e * e;
      norm += expected[std::size_t(j)] * expected[std::size_t(j)];
    }
  }
  const double error = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
  char text[200];
  std::snprintf(text, sizeof text, "%s: rel L2 error %.3g (tolerance %.3g, %s)", ref.output.c_str(), error,
                tolerance,
                n == ref.rows ? "all rows"
                              : (std::to_string(n) + " sampled rows of " + std::to_string(ref.rows)).c_str());
  return {error <= tolerance, text};
}

// out[i][j] = sum_k A(rows[i], k) B(k, j) in float64 for the listed rows of A (row stride lda)
// and a row-major B (k x n, row stride ldb): 16 rows by 256 columns at a time, so each B row
// chunk is read once per 16 rows and the sums stay in the L1 cache.
template <class TA>
void rows_times(const TA* a, std::int64_t lda, std::span<const std::int64_t> rows, const float* b,
                std::int64_t ldb, std::int64_t n, std::int64_t k, double* out) {
  constexpr std::int64_t kRows = 16, kCols = 256;
  const auto m = std::int64_t(rows.size());
  const std::int64_t row_blocks = (m + kRows - 1) / kRows, col_blocks = (n + kCols - 1) / kCols;
#pragma omp parallel for collapse(2) schedule(static)
  for (std::int64_t rb = 0; rb < row_blocks; ++rb)
    for (std::int64_t cb = 0; cb < col_blocks; ++cb) {
      const std::int64_t r0 = rb * kRows, nr = std::min(kRows, m - r0);
      const std::int64_t c0 = cb * kCols, nc = std::min(kCols, n - c0);
      double acc[kRows][kCols] = {};
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const float* brow = b + kk * ldb + c0;
        for (std::int64_t i = 0; i < nr; ++i) {
          const double av = double(a[rows[std::size_t(r0 + i)] * lda + kk]);
#pragma omp simd
          for (std::int64_t j = 0; j < nc; ++j) acc[i][j] += av * double(brow[j]);
        }
      }
      for (std::int64_t i = 0; i < nr; ++i) std::copy(acc[i], acc[i] + nc, out + (r0 + i) * n + c0);
    }
}

// Row i of softmax(Q K^T / sqrt(hd)) V for every head (attn [seq, d]) from qkv [seq, 3d] of
// element type T; `causal`: row i sees keys 0..i.
template <class T>
void attention_row(const T* qkv, std::int64_t seq, std::int64_t d, std::int64_t heads, bool causal,
                   std::int64_t i, double* out) {
  const std::int64_t hd = d / heads, keys = causal ? i + 1 : seq;
  const double scale = 1 / std::sqrt(double(hd));
  std::vector<double> p(static_cast<std::size_t>(keys));
  for (std::int64_t h = 0; h < heads; ++h) {
    const T* q = qkv + i * 3 * d + h * hd;
    double m = -INFINITY;
    for (std::int64_t j = 0; j < keys; ++j) {
      const T* k = qkv + j * 3 * d + d + h * hd;
      double dot = 0;
      for (std::int64_t e = 0; e < hd; ++e) dot += double(q[e]) * double(k[e]);
      p[std::size_t(j)] = dot * scale;
      m = std::max(m, p[std::size_t(j)]);
    }
    double sum = 0;
    for (double& v : p) sum += v = std::exp(v - m);
    double* o = out + h * hd;
    std::fill(o, o + hd, 0.0);
    for (std::int64_t j = 0; j < keys; ++j) {
      const T* v = qkv + j * 3 * d + 2 * d + h * hd;
      const double w = p[std::size_t(j)] / sum;
#pragma omp simd
      for (std::int64_t e = 0; e < hd; ++e) o[e] += w * double(v[e]);
    }
  }
}

}  // namespace perfgate::kernels
