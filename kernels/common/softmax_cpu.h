#pragma once
// Row-wise, numerically stable softmax on the CPU (softmax and the attention stage).
#include <cmath>
#include <cstdint>

#include "kernels/common/fast_exp.h"

namespace perfgate::kernels {

inline void softmax_row(const float* __restrict x, float* __restrict y, std::int64_t n) {
  float m = x[0];
#pragma omp simd reduction(max : m)
  for (std::int64_t j = 0; j < n; ++j) m = x[j] > m ? x[j] : m;
  float sum = 0;
#pragma omp simd reduction(+ : sum)
  for (std::int64_t j = 0; j < n; ++j) {
    y[j] = fast_exp(x[j] - m);
    sum += y[j];
  }
  const float inv = 1.0f / sum;
#pragma omp simd
  for (std::int64_t j = 0; j < n; ++j) y[j] *= inv;
}

inline void softmax_rows(const float* x, float* y, std::int64_t rows, std::int64_t cols) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < rows; ++i) softmax_row(x + i * cols, y + i * cols, cols);
}

// float64 reference of one row.
inline void softmax_reference_row(const float* x, double* y, std::int64_t n) {
  double m = x[0], sum = 0;
  for (std::int64_t j = 0; j < n; ++j) m = x[j] > m ? x[j] : m;
  for (std::int64_t j = 0; j < n; ++j) sum += y[j] = std::exp(double(x[j]) - m);
  for (std::int64_t j = 0; j < n; ++j) y[j] /= sum;
}

}  // namespace perfgate::kernels
