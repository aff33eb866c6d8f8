// tensor_peak: the device's dense f16 matrix throughput (f16 inputs, f32 accumulation), the
// compute ceiling of kernels whose cost says matrix_flops (matmul_f16). Every output tile t is a
// 16x16 chain C = A_(t mod 8) * B + C run `iters` times in registers: 8 independent chains per
// subgroup on cooperative matrices (tensor cores), the same multiply-adds on the vector units
// elsewhere. tensor_peak_workgroup measures the workgroup scope beside it. A and B hold multiples of 1/8 in
// [-1, 1], so every partial sum is a multiple of 1/64 below 2^14: exact in float32 whatever the order, and
// the reference is iters * A * B.
#include <algorithm>
#include <cmath>

#include "kernels/common/tensor_fragments.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {
constexpr int kChains = 8;  // CHAINS of tensor_peak_coopmat.comp
constexpr int kTile = 16 * 16;
}  // namespace

PERFGATE_KERNEL(tensor_peak) {
  return KernelDef("tensor_peak")
      .describe("8 chains of 16x16x16 f16 multiply-adds (f32 accumulators) per subgroup: tensor peak")
      .axis("n", {1 << 9}, {Backend::cpu})
      .axis("n", {1 << 14}, {Backend::vulkan})
      .axis("iters", {128})
      .axis("wg", {256}, {Backend::vulkan})
      .valid([](const Params& p, Backend) { return p["n"] % kChains == 0 && p["iters"] <= 1024; })
      .buffers([](const Params& p) {
        return std::vector<BufferSpec>{{"a", ElementType::f16, kChains * kTile, BufferRole::input},
                                       {"b", ElementType::f16, kTile, BufferRole::input},
                                       {"c", ElementType::f32, std::size_t(p["n"]) * kTile, BufferRole::output}};
      })
      .fill([](const Params&, Buffers& buf, Rng& rng) {
        std::uniform_int_distribution<int> eighths(-8, 8);
        for (auto* name : {"a", "b"})
          for (std::uint16_t& x : buf.get<std::uint16_t>(name)) x = to_half(float(eighths(rng)) / 8);
      })
      .cost([](const Params& p) {
        const double n = double(p["n"]);
        return Cost{2.0 * (kChains + 1) * kTile, 4.0 * kTile * n, 2.0 * 16 * kTile * n * double(p["iters"]), true};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            auto a = in.get<std::uint16_t>("a");
            auto b = in.get<std::uint16_t>("b");
            std::vector<double> c(static_cast<std::size_t>(p["n"]) * kTile);
            for (std::size_t t = 0; t < std::size_t(p["n"]); ++t)
              for (int r = 0; r < 16; ++r)
                for (int col = 0; col < 16; ++col) {
                  double sum = 0;
                  for (int k = 0; k < 16; ++k)
                    sum += double(from_half(a[(t % kChains) * kTile + r * 16 + k])) * double(from_half(b[k * 16 + col]));
                  c[t * kTile + r * 16 + col] = double(p["iters"]) * sum;
                }
            return expect("c", std::move(c));
          },
          1e-6, "every partial sum is a multiple of 1/64 below 2^14 (iters <= 1024): exact in float32")
      .cpu([](const Params& p, Buffers& buf) {
        const auto a = buf.get<std::uint16_t>("a");
        const auto b = buf.get<std::uint16_t>("b");
        float* c = buf.get<float>("c").data();
        const auto n = std::int64_t(p["n"]);
        const auto iters = std::int64_t(p["iters"]);
        float bf[16][16];
        for (int i = 0; i < kTile; ++i) bf[i / 16][i % 16] = from_half(b[i]);
#pragma omp parallel for schedule(static)
        for (std::int64_t t = 0; t < n; ++t) {
          float af[16][16], acc[16][16] = {};
          for (int i = 0; i < kTile; ++i) af[i / 16][i % 16] = from_half(a[(t % kChains) * kTile + i]);
          // A chain of fmas into acc: nothing to hoist out of the iterations.
          for (std::int64_t it = 0; it < iters; ++it)
            for (int r = 0; r < 16; ++r)
              for (int k = 0; k < 16; ++k)
#pragma omp simd
                for (int col = 0; col < 16; ++col) acc[r][col] = std::fma(af[r][k], bf[k][col], acc[r][col]);
          std::copy(&acc[0][0], &acc[0][0] + kTile, c + t * kTile);
        }
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const auto n = std::uint32_t(p["n"]);
        const auto wg = std::uint32_t(std::min<std::int64_t>(p["wg"], limits.max_workgroup_invocations));
        Dispatch d;
        d.bindings = {"a", "b", "c"};
        d.push_constants = {n, std::uint32_t(p["iters"])};
        d.stage = "tensor_peak";
        d.specialization = {wg};
        // The KHR extension where the device has it and this build compiled its shader (634
        // against 585 TFLOP/s on the H100, docs/performance.md), else the NV one.
        const bool khr = limits.cooperative_matrix_khr && !find_shader("tensor_peak/tensor_peak_khr").empty();
        if (khr || limits.cooperative_matrix_f16) {
          const std::uint32_t tiles_per_group = wg / limits.subgroup_size * kChains;
          d.shader = khr ? "tensor_peak/tensor_peak_khr" : "tensor_peak/tensor_peak_coopmat";
          d.groups = {(n + tiles_per_group - 1) / tiles_per_group, 1, 1};
        } else {
          d.shader = "tensor_peak/tensor_peak_vector";
          d.groups = {(n * kTile + wg - 1) / wg, 1, 1};
        }
        return VulkanPlan{{std::move(d)}};
      });
}
