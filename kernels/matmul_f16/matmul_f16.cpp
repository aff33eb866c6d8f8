// matmul_f16: C = A * B with half-precision A (m x k) and B (k x n), row-major, and float32
// accumulation and output: the GEMM of an f16 model's prefill. On devices with cooperative
// matrices (tensor cores) each subgroup multiplies 16x16x16 fragments, or (staged 3, 4) each
// workgroup one workgroup-scope tile; elsewhere (llvmpipe) a shared-memory tiled shader does the
// same arithmetic on the vector units.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/common/gemm_cpu.h"
#include "kernels/common/matmul_plan.h"
#include "kernels/common/tensor_fragments.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

std::vector<float> widen(std::span<const std::uint16_t> halves) {
  std::vector<float> out(halves.size());
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < halves.size(); ++i) out[i] = from_half(halves[i]);
  return out;
}

// The inputs are f16 values, widened exactly, so the reference multiplies the very numbers the
// device does: what is left is float32 accumulation, as for matmul (eps/2 * sqrt(k) = 4e-6 at
// k = 4096), and tensor cores that add the 16 products of a fragment with one rounding or
// truncate their partial sums (a few eps per fragment step, still ~1e-5 as a random walk).
// 1e-4 leaves room for both. A reference over f32 inputs rounded to f16 would instead see
// 2^-11 = 5e-4 per input: that is the input's precision, not the kernel's error.
constexpr double kTolerance = 1e-4;

// The k-step of the workgroup-scope paths (staged 3 and 4).
std::int64_t workgroup_bk(std::int64_t staged) { return staged == 4 ? 64 : kTensorBK; }

}  // namespace

PERFGATE_KERNEL(matmul_f16) {
  return KernelDef("matmul_f16")
      .describe("C = A * B, A and B fp16, C float32 (f32 accumulation): tensor cores where present")
      // CI keeps a small product per backend (llvmpipe runs the fallback shader); --axis m=4096 --axis n=4096 --axis k=4096 is the
      // H100 figure (docs/performance.md), fastest there with --axis staged=3 --axis wg=128 (tile 128: 276 TFLOP/s
      // against 175 for the default staged=1 on NV fragments). The default point keeps its case id, which the
      // approved baselines of every machine name.
      .axis("m", {256}, {Backend::cpu})
      .axis("n", {1024}, {Backend::cpu})
      .axis("k", {1024}, {Backend::cpu})
      .axis("m", {256}, {Backend::vulkan})
      .axis("n", {256}, {Backend::vulkan})
      .axis("k", {256}, {Backend::vulkan})
      .axis("tile", {128}, {Backend::vulkan})
      .axis("wg", {256}, {Backend::vulkan})
      // How A and B reach the tensor cores: 0, every subgroup loads its fragments from global
      // memory; 1, a workgroup's tiles staged through one shared buffer, each element read from
      // global memory once per workgroup, the next step's loads in flight during this step's
      // multiply-adds, two barriers per step; 2, the same through two shared buffers, one
      // barrier per step (slower on the H100: docs/performance.md); 3 and 4, one workgroup-scope
      // tile x tile accumulator per workgroup (VK_NV_cooperative_matrix2), its A and B blocks
      // loaded through tensor layouts 32 (3) or 64 (4) deep, the driver staging them.
      .axis("staged", {1}, {Backend::vulkan})
      .axis_limits("staged", 0, 4)
      .valid([](const Params& p, Backend backend) {
        if (backend == Backend::cpu) return true;
        if (p["staged"] >= 3)
          return p["tile"] % kFragment == 0 && p["wg"] % 32 == 0 && p["m"] % p["tile"] == 0 &&
                 p["n"] % p["tile"] == 0 && p["k"] % workgroup_bk(p["staged"]) == 0;
        return tensor_tile_valid(p["tile"], p["wg"]) && p["m"] % p["tile"] == 0 && p["n"] % p["tile"] == 0 &&
               p["k"] % kTensorBK == 0;
      })
      .buffers([](const Params& p) {
        const auto m = std::size_t(p["m"]), n = std::size_t(p["n"]), k = std::size_t(p["k"]);
        return std::vector<BufferSpec>{{"a", ElementType::f16, m * k, BufferRole::input},
                                       {"b", ElementType::f16, k * n, BufferRole::input},
                                       {"c", ElementType::f32, m * n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double m = double(p["m"]), n = double(p["n"]), k = double(p["k"]);
        return Cost{2 * (m * k + k * n), 4 * m * n, 2 * m * n * k, true};
      })
      .check([](const Params& p, const Buffers& buf) {
        const auto a = widen(buf.get<std::uint16_t>("a"));
        const auto b = widen(buf.get<std::uint16_t>("b"));
        CheckResult r = check_gemm(row_major_gemm(p), a.data(), b.data(), buf.get<float>("c").data(), kTolerance, "c");
        r.detail += " (f16 inputs as stored, tolerance 1e-4: f32 accumulation)";
        return r;
      })
      // Widen both operands (O(mk + kn), every core), then the float32 GEMM (O(mnk)).
      .cpu([](const Params& p, Buffers& buf) {
        const auto a = widen(buf.get<std::uint16_t>("a"));
        const auto b = widen(buf.get<std::uint16_t>("b"));
        gemm(row_major_gemm(p), a.data(), b.data(), buf.get<float>("c").data());
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const auto m = std::uint32_t(p["m"]), n = std::uint32_t(p["n"]), k = std::uint32_t(p["k"]);
        Dispatch d;
        d.bindings = {"a", "b", "c"};
        d.push_constants = {m, n, k};
        d.stage = "matmul_f16";
        if (p["staged"] >= 3 && (limits.cooperative_matrix_f16 || limits.cooperative_matrix_workgroup)) {
          // Where the device or this build lacks it, the case is skipped naming which.
          const auto wg = std::uint32_t(p["wg"]), tile = std::uint32_t(p["tile"]);
          if (limits.cooperative_matrix_workgroup && wg > limits.matrix_workgroup_max_invocations)
            throw Error("matmul_f16: wg=" + std::to_string(wg) + " is over the device's " +
                        std::to_string(limits.matrix_workgroup_max_invocations) +
                        " invocations for workgroup-scope matrices");
          d.shader = "matmul_f16/matmul_f16_workgroup";
          d.specialization = {wg, tile, tile, std::uint32_t(workgroup_bk(p["staged"]))};
          d.groups = {n / tile, m / tile, 1};
        } else if (limits.cooperative_matrix_f16) {
          const TensorTile t = tensor_tile(p["tile"], p["wg"], limits.subgroup_size);
          if (p["staged"]) {
            const std::int64_t stages = p["staged"];
            const std::int64_t bk = tensor_staged_bk(t.tile, t.wg, k, stages, limits.max_shared_memory_bytes);
            if (bk == 0)
              throw Error("matmul_f16: tile=" + std::to_string(t.tile) + " needs " +
                          std::to_string(tensor_staged_shared_bytes(t.tile, kTensorBK, stages)) +
                          " bytes of shared memory");
            d.shader = "matmul_f16/matmul_f16_coopmat_staged";
            d.specialization = {
                t.wg, t.tile, t.subgroups_m, t.subgroups_n, t.tile, std::uint32_t(bk), std::uint32_t(stages)};
          } else {
            d.shader = "matmul_f16/matmul_f16_coopmat";
            d.specialization = {t.wg, t.tile, t.subgroups_m, t.subgroups_n};
          }
          d.groups = {n / t.tile, m / t.tile, 1};
        } else {
          d.shader = "matmul_f16/matmul_f16_vector";
          d.specialization = {kFallbackTile * kFallbackTile};
          d.groups = {(n + kFallbackTile - 1) / kFallbackTile, (m + kFallbackTile - 1) / kFallbackTile, 1};
        }
        return VulkanPlan{{std::move(d)}};
      });
}
