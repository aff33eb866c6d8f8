#pragma once
// The Vulkan plan of the matmul shaders (matmul/matmul, matmul/matmul_vec4), shared by the
// matmul kernel and the attention stages: the register block per thread follows from the tile
// and the workgroup size.
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/common/gemm_cpu.h"
#include "perfgate/error.h"
#include "perfgate/kernel.h"

namespace perfgate::kernels {

constexpr std::uint32_t kMatmulBK = 16;  // k-depth of a shared-memory stage

// C = A * B with row-major A (m x k), B (k x n), C (m x n) from the m, n, k axes.
inline GemmShape row_major_gemm(const Params& p) {
  GemmShape s;
  s.m = p["m"];
  s.n = p["n"];
  s.k = p["k"];
  s.lda = s.k;
  s.ldb = s.n;
  s.ldc = s.n;
  return s;
}

struct MatmulConfig {
  std::uint32_t tile = 0, wg = 0, rm = 0, rn = 0;
  bool vec4 = false;
  std::uint32_t shared_bytes() const { return 2 * kMatmulBK * (tile + 4) * 4; }
};

// A T x T tile over wg threads gives each thread T*T/wg outputs: a power of two from 1 to 64
// (more would spill registers), split into an RM x RN block as square as it can be.
inline std::optional<MatmulConfig> matmul_config(std::int64_t tile, std::int64_t wg) {
  if (tile < 16 || wg < 1 || !std::has_single_bit(std::uint64_t(tile)) ||
      !std::has_single_bit(std::uint64_t(wg)) || tile * tile < wg || tile * tile / wg > 64)
    return std::nullopt;
  const auto per = std::uint32_t(tile * tile / wg);
  MatmulConfig c;
  c.tile = std::uint32_t(tile);
  c.wg = std::uint32_t(wg);
  c.rn = 1u << ((std::bit_width(per) - 1 + 1) / 2);
  c.rm = per / c.rn;
  c.vec4 = c.rm % 4 == 0 && c.rn % 4 == 0;
  return c;
}

// Offsets and batch strides in elements; batch is the number of independent products.
struct MatmulOperands {
  std::uint32_t a_offset = 0, a_batch_stride = 0;
  std::uint32_t b_offset = 0, b_batch_stride = 0;
  std::uint32_t c_offset = 0, c_batch_stride = 0;
  std::uint32_t batch = 1;
};

inline Dispatch matmul_dispatch(const MatmulConfig& c, const GemmShape& s, const MatmulOperands& o,
                                const DeviceLimits& limits, std::vector<std::string> bindings,
                                std::string stage) {
  if (c.wg > limits.max_workgroup_invocations)
    throw Error("matmul: wg=" + std::to_string(c.wg) + " exceeds the device's " +
                std::to_string(limits.max_workgroup_invocations) + " invocations per workgroup");
  if (c.shared_bytes() > limits.max_shared_memory_bytes)
    throw Error("matmul: tile=" + std::to_string(c.tile) + " needs " + std::to_string(c.shared_bytes()) +
                " bytes of shared memory");
  if (s.m % c.tile || s.n % c.tile || s.k % kMatmulBK)
    throw Error("matmul: m, n must be multiples of the tile and k of " + std::to_string(kMatmulBK));
  // The vec4 shader loads A and B 16 bytes at a time: every row and batch starts on 4 floats.
  const bool aligned = s.lda % 4 == 0 && s.ldb % 4 == 0 && o.a_offset % 4 == 0 && o.b_offset % 4 == 0 &&
                       o.a_batch_stride % 4 == 0 && o.b_batch_stride % 4 == 0;
  Dispatch d;
  d.shader = c.vec4 && aligned ? "matmul/matmul_vec4" : "matmul/matmul";
  d.bindings = std::move(bindings);
  d.specialization = {c.wg, c.tile, kMatmulBK, c.rm, c.rn, s.transpose_b ? 1u : 0u};
  d.push_constants = {std::uint32_t(s.m),
                      std::uint32_t(s.n),
                      std::uint32_t(s.k),
                      std::uint32_t(s.lda),
                      std::uint32_t(s.ldb),
                      std::uint32_t(s.ldc),
                      o.a_offset,
                      o.a_batch_stride,
                      o.b_offset,
                      o.b_batch_stride,
                      o.c_offset,
                      o.c_batch_stride,
                      std::bit_cast<std::uint32_t>(s.alpha)};
  d.groups = {std::uint32_t(s.n / c.tile), std::uint32_t(s.m / c.tile), o.batch};
  d.stage = std::move(stage);
  return d;
}

// Relative L2 error of C against the float64 product: every element when the product is small,
// else `samples` seeded random elements (plus a finiteness test of all, so poison is caught).
inline CheckResult check_gemm(const GemmShape& s, const float* a, const float* b, const float* c,
                              double tolerance, const std::string& name,
                              std::int64_t full_limit = std::int64_t(1) << 28, std::int64_t samples = 4096) {
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j)
      if (!std::isfinite(c[i * s.ldc + j]))
        return {false,
                name + ": element (" + std::to_string(i) + "," + std::to_string(j) + ") is not finite"};
  // Elements to compare: all of them, or seeded random samples.
  const bool full = s.m * s.n * s.k <= full_limit;
  std::vector<std::pair<std::int64_t, std::int64_t>> at;
  if (full) {
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) at.emplace_back(i, j);
  } else {
    Rng rng(12345);
    for (std::int64_t t = 0; t < samples; ++t)
      at.emplace_back(std::int64_t(rng() % std::uint64_t(s.m)), std::int64_t(rng() % std::uint64_t(s.n)));
  }
  double diff = 0, norm = 0;
  const auto count = std::int64_t(at.size());
#pragma omp parallel for reduction(+ : diff, norm) schedule(static)
  for (std::int64_t t = 0; t < count; ++t) {
    const auto [i, j] = at[std::size_t(t)];
    const double ref = gemm_reference_at(s, a, b, i, j);
    const double d = double(c[i * s.ldc + j]) - ref;
    diff += d * d;
    norm += ref * ref;
  }
  const double error = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
  char text[200];
  std::snprintf(text, sizeof text, "%s: rel L2 error %.3g (tolerance %.3g, %s)", name.c_str(), error,
                tolerance, full ? "all elements" : (std::to_string(samples) + " sampled elements").c_str());
  return {error <= tolerance, text};
}

}  // namespace perfgate::kernels
