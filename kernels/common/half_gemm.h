#pragma once
// What matmul_f16 and matmul_bf16 share: C = A * B with 16-bit A (m x k) and B (k x n),
// row-major, float32 accumulation and output. Their buffers, cost, CPU kernel and check differ
// only in how a 16-bit element widens to float (from_half, from_bfloat16; on the CPU a row at a
// time as the GEMM packs it, widen_f16_row, widen_bf16_row).
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kernels/common/gemm_cpu.h"
#include "kernels/common/matmul_plan.h"
#include "perfgate/kernel.h"

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace perfgate::kernels {

// n f16 values widened, 8 at a time by F16C where the machine has it (every x86-64-v3 one).
inline void widen_f16_row(const std::uint16_t* in, float* out, std::int64_t n) {
  std::int64_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
#endif
  for (; i < n; ++i) out[i] = from_half(in[i]);
}

// n bf16 values widened: a bf16 is a float32's upper half, exactly.
inline void widen_bf16_row(const std::uint16_t* in, float* out, std::int64_t n) {
#pragma omp simd
  for (std::int64_t i = 0; i < n; ++i) out[i] = std::bit_cast<float>(std::uint32_t(in[i]) << 16);
}

// The inputs are 16-bit values, widened exactly, so the reference multiplies the very numbers
// the device does, and the product of two f16 or bf16 values is exact in float32: what is left
// is float32 accumulation, as for matmul (eps/2 * sqrt(k) = 4e-6 at k = 4096), and tensor cores
// that add the 16 products of a fragment with one rounding or truncate their partial sums (a few
// eps per fragment step, still ~1e-5 as a random walk). 1e-4 leaves room for both. A reference
// over f32 inputs rounded to 16 bits would instead see the input's precision (2^-11 for f16),
// not the kernel's error.
inline constexpr double kHalfGemmTolerance = 1e-4;

// The tensor-layout path (kernels/common/matmul_tensor_layout.glsl): k-steps 32 deep, unrolled as
// deep as divides k up to 64 steps (on the H100 at 4096^3, 64 steps per iteration ran fastest and
// the whole k, 128, 13% slower: docs/performance.md).
inline constexpr std::int64_t kTensorLayoutBK = 32;
inline std::uint32_t tensor_layout_unroll(std::int64_t k) {
  const std::int64_t steps = k / kTensorLayoutBK;
  std::uint32_t unroll = 64;
  while (unroll > 1 && steps % unroll != 0) unroll /= 2;
  return unroll;
}

// Its dispatch of `shader` for C = A (m x k) * B (k x n): a tm x tn tile of C per workgroup of
// `wg` invocations, the tiles walked in bands of `group` tile rows (0: row by row). Sizes are
// multiples of tm, tn and kTensorLayoutBK (the kernels' `valid`).
inline Dispatch tensor_layout_dispatch(std::string shader, std::string stage, const Params& p,
                                       std::uint32_t wg, std::uint32_t tm, std::uint32_t tn,
                                       std::uint32_t group) {
  const auto m = std::uint32_t(p["m"]), n = std::uint32_t(p["n"]), k = std::uint32_t(p["k"]);
  Dispatch d;
  d.shader = std::move(shader);
  d.stage = std::move(stage);
  d.bindings = {"a", "b", "c"};
  d.push_constants = {m, n, k};
  d.specialization = {wg, tm, tn, std::uint32_t(kTensorLayoutBK), tensor_layout_unroll(k), k, n, group};
  d.groups = {n / tn, m / tm, 1};
  return d;
}

// Sets `def`'s default points (a small product per backend, on a 128 x 256 tile of 256
// invocations on Vulkan, the tensor-layout path's fastest on the H100), buffers ("a", "b" of
// `input` elements; "c" f32), cost, CPU kernel and check.
// `widen_one` is the harness's conversion, for the check; `widen_row` the CPU kernel's.
inline KernelDef half_gemm(KernelDef def, ElementType input, float (*widen_one)(std::uint16_t),
                           detail::Widen<std::uint16_t> widen_row) {
  const auto widen = [widen_one](std::span<const std::uint16_t> values) {
    std::vector<float> out(values.size());
#pragma omp parallel for simd schedule(static)
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = widen_one(values[i]);
    return out;
  };
  const std::string note =
      " (" + std::string(to_string(input)) + " inputs as stored, tolerance 1e-4: f32 accumulation)";
  def.axis("m", {256}, {Backend::cpu})
      .axis("n", {1024}, {Backend::cpu})
      .axis("k", {1024}, {Backend::cpu})
      .axis("m", {256}, {Backend::vulkan})
      .axis("n", {256}, {Backend::vulkan})
      .axis("k", {256}, {Backend::vulkan})
      .axis("tile", {128}, {Backend::vulkan})
      .axis("wg", {256}, {Backend::vulkan})
      .buffers([input](const Params& p) {
        const auto m = std::size_t(p["m"]), n = std::size_t(p["n"]), k = std::size_t(p["k"]);
        return std::vector<BufferSpec>{{"a", input, m * k, BufferRole::input},
                                       {"b", input, k * n, BufferRole::input},
                                       {"c", ElementType::f32, m * n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double m = double(p["m"]), n = double(p["n"]), k = double(p["k"]);
        return Cost{2 * (m * k + k * n), 4 * m * n, 2 * m * n * k, true};
      })
      .check([widen, note](const Params& p, const Buffers& buf) {
        const auto a = widen(buf.get<std::uint16_t>("a"));
        const auto b = widen(buf.get<std::uint16_t>("b"));
        CheckResult r = check_gemm(row_major_gemm(p), a.data(), b.data(), buf.get<float>("c").data(),
                                   kHalfGemmTolerance, "c");
        r.detail += note;
        return r;
      })
      // The float32 GEMM, widening A and B as it packs them (O(mk) per thread, O(kn) in all).
      .cpu([widen_row](const Params& p, Buffers& buf) {
        gemm(row_major_gemm(p), buf.get<std::uint16_t>("a").data(), buf.get<std::uint16_t>("b").data(),
             buf.get<float>("c").data(), widen_row);
      });
  return def;
}

}  // namespace perfgate::kernels
