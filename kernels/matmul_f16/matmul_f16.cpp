// matmul_f16: C = A * B with half-precision A (m x k) and B (k x n), row-major, and float32
// accumulation and output: the GEMM of an f16 model's prefill. On devices with cooperative
// matrices (tensor cores) each subgroup multiplies 16x16x16 fragments, or (staged 3 to 16) each
// workgroup one workgroup-scope tile; elsewhere (llvmpipe) a shared-memory tiled shader does the
// same arithmetic on the vector units.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "kernels/common/half_gemm.h"
#include "kernels/common/tensor_fragments.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

// The workgroup-scope paths (staged 3 to 16): a (rows x tile) x (cols x tile) accumulator per
// workgroup, blocks bk deep staged through `buffers` shared buffers (0: loaded through tensor
// layouts, the driver staging them), the C tiles walked in bands of `group` tile rows (0: row by
// row). TFLOP/s at 4096^3 on the H100 at tile 128 (wg 128 / 256; docs/performance.md): 14 is
// the fastest.
struct WorkgroupPath {
  std::int64_t bk, buffers, rows, cols, group = 0;
};
constexpr WorkgroupPath kWorkgroupPaths[] = {
    {32, 1, 1, 1},      // 3: 276 / 182
    {64, 1, 1, 1},      // 4: 153 / 253
    {32, 2, 1, 1},      // 5: two buffers, one barrier per step: 157 / 152
    {16, 2, 1, 1},      // 6: 163 / 111
    {32, 1, 1, 2},      // 7: tile x 2 tile: 50 (accumulators past the registers) / 248
    {16, 2, 1, 2},      // 8: 44 / 152
    {32, 1, 2, 1},      // 9: 2 tile x tile: 45 / 225
    {16, 2, 2, 1},      // 10: 47 / 147
    {32, 1, 1, 1, 8},   // 11: as 3, bands of 8 tile rows
    {32, 1, 1, 1, 16},  // 12: as 3, bands of 16
    {32, 1, 1, 2, 8},   // 13: as 7, bands of 8
    {32, 0, 1, 2, 16},  // 14: tensor layouts, tile x 2 tile, bands of 16: - / 324
    {32, 0, 1, 2},      // 15: as 14, row by row: - / 322
    {32, 0, 1, 1},      // 16: tensor layouts, tile x tile: 290 / -
};
constexpr std::int64_t kFirstWorkgroupPath = 3;
constexpr std::int64_t kLastWorkgroupPath = kFirstWorkgroupPath + std::size(kWorkgroupPaths) - 1;
WorkgroupPath workgroup_path(std::int64_t staged) { return kWorkgroupPaths[staged - kFirstWorkgroupPath]; }

}  // namespace

PERFGATE_KERNEL(matmul_f16) {
  return half_gemm(KernelDef("matmul_f16"), ElementType::f16, from_half, widen_f16_row)
      .describe("C = A * B, A and B fp16, C float32 (f32 accumulation): tensor cores where present")
      // The H100 figure is --axis m=4096 --axis n=4096 --axis k=4096 (docs/performance.md; llvmpipe runs
      // the fallback shader). The default point is the fastest there: staged=14 on 256 invocations, tile 128
      // (324 TFLOP/s against 276 for staged=3 on 128 invocations, the default point before it, and 175
      // for staged=1 on NV fragments). A device with NV fragments but not VK_NV_cooperative_matrix2 skips the
      // default point, naming the extension.
      // How A and B reach the tensor cores: 0, every subgroup loads its fragments from global
      // memory; 1, a workgroup's tiles staged through one shared buffer, each element read from
      // global memory once per workgroup, the next step's loads in flight during this step's
      // multiply-adds, two barriers per step; 2, the same through two shared buffers, one
      // barrier per step (slower on the H100: docs/performance.md); 3 and 4, one workgroup-scope
      // tile x tile accumulator per workgroup (VK_NV_cooperative_matrix2), its A and B blocks
      // staged through shared memory 32 (3) or 64 (4) deep; 5 and 6, the same through two shared
      // buffers (one barrier per step) 32 or 16 deep; 7 and 8 (one buffer 32 deep, two 16 deep),
      // tile x 2 tile; 9 and 10, 2 tile x tile; 11 to 13, 3 and 7 with the C tiles walked in bands
      // of tile rows; 14 to 16, A and B loaded straight from global memory through tensor layouts,
      // tile x 2 tile in bands of 16 tile rows (14) or row by row (15), tile x tile (16)
      // (kWorkgroupPaths, kernels/common/matmul_tensor_layout.glsl).
      .axis("staged", {14}, {Backend::vulkan})
      .axis_limits("staged", 0, kLastWorkgroupPath)
      .valid([](const Params& p, Backend backend) {
        if (backend == Backend::cpu) return true;
        if (p["staged"] >= kFirstWorkgroupPath) {
          const WorkgroupPath w = workgroup_path(p["staged"]);
          return p["tile"] % kFragment == 0 && p["wg"] % 32 == 0 && p["m"] % (w.rows * p["tile"]) == 0 &&
                 p["n"] % (w.cols * p["tile"]) == 0 && p["k"] % w.bk == 0;
        }
        return tensor_tile_valid(p["tile"], p["wg"]) && p["m"] % p["tile"] == 0 && p["n"] % p["tile"] == 0 &&
               p["k"] % kTensorBK == 0;
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const auto m = std::uint32_t(p["m"]), n = std::uint32_t(p["n"]), k = std::uint32_t(p["k"]);
        Dispatch d;
        d.bindings = {"a", "b", "c"};
        d.push_constants = {m, n, k};
        d.stage = "matmul_f16";
        if (p["staged"] >= kFirstWorkgroupPath &&
            (limits.cooperative_matrix_f16 || limits.cooperative_matrix_workgroup)) {
          // Where the device or this build lacks it, the case is skipped naming which.
          const WorkgroupPath w = workgroup_path(p["staged"]);
          const auto wg = std::uint32_t(p["wg"]);
          const auto tm = std::uint32_t(w.rows * p["tile"]), tn = std::uint32_t(w.cols * p["tile"]);
          if (limits.cooperative_matrix_workgroup && wg > limits.matrix_workgroup_max_invocations)
            throw Error("matmul_f16: wg=" + std::to_string(wg) + " is over the device's " +
                        std::to_string(limits.matrix_workgroup_max_invocations) +
                        " invocations for workgroup-scope matrices");
          if (w.buffers == 0)
            return VulkanPlan{{tensor_layout_dispatch("matmul_f16/matmul_f16_tensor", "matmul_f16", p, wg, tm,
                                                      tn, std::uint32_t(w.group))}};
          const std::int64_t shared = tensor_staged_shared_bytes(tm, tn, w.bk, w.buffers);
          if (shared > std::int64_t(limits.max_shared_memory_bytes))
            throw Error("matmul_f16: staged=" + std::to_string(p["staged"]) +
                        " at tile=" + std::to_string(p["tile"]) + " needs " + std::to_string(shared) +
                        " bytes of shared memory");
          d.shader = "matmul_f16/matmul_f16_workgroup";
          d.specialization = {
              wg, tm, tn, std::uint32_t(w.bk), std::uint32_t(w.buffers), std::uint32_t(w.group)};
          d.groups = {n / tn, m / tm, 1};
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
