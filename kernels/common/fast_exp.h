#pragma once
// exp(x) in float32 that the compiler vectorises inside `omp simd` loops (glibc's expf is
// scalar without -ffast-math): 2^n * e^g with n = round(x / ln 2), |g| <= ln(2) / 2, e^g by
// its degree-7 Taylor polynomial (truncation error 1.4e-9). About 2 ulp over [-87, 88].
#include <bit>
#include <cstdint>

namespace perfgate::kernels {

#pragma omp declare simd
inline float fast_exp(float x) {
  x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
  const float t = x * 1.44269504088896341f;
  const float n = (t + 12582912.0f) - 12582912.0f;  // round to nearest: 1.5 * 2^23
  const float g = (t - n) * 0.693147180559945309f;
  float p = 1.0f / 5040;
  p = p * g + 1.0f / 720;
  p = p * g + 1.0f / 120;
  p = p * g + 1.0f / 24;
  p = p * g + 1.0f / 6;
  p = p * g + 0.5f;
  p = p * g + 1.0f;
  p = p * g + 1.0f;
  return p * std::bit_cast<float>((std::int32_t(n) + 127) << 23);
}

}  // namespace perfgate::kernels
