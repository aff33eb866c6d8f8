// matmul_bf16: C = A * B with bfloat16 A (m x k) and B (k x n), row-major, and float32
// accumulation and output: the GEMM of a bf16 model's prefill (bf16 keeps f32's exponent range,
// which is why training and many checkpoints use it). On tensor cores it is matmul_f16's fastest
// path with bf16 fragments: one workgroup-scope tile x tile accumulator per workgroup
// (VK_NV_cooperative_matrix2 with VK_KHR_shader_bfloat16), A and B staged through shared memory
// 32 deep (kernels/common/matmul_workgroup.glsl). A device without bf16 workgroup-scope matrices
// (llvmpipe) skips it naming the feature, and a build whose shader compiler does not know
// GL_EXT_bfloat16 names that.
#include <string>

#include "kernels/common/half_gemm.h"
#include "kernels/common/tensor_fragments.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

constexpr std::int64_t kBK = 32;  // k per staged block, as matmul_f16's fastest path (staged=3)

}  // namespace

PERFGATE_KERNEL(matmul_bf16) {
  return half_gemm(KernelDef("matmul_bf16"), ElementType::bf16, from_bfloat16)
      .describe("C = A * B, A and B bfloat16, C float32 (f32 accumulation): tensor cores at workgroup scope")
      // The H100 figure is --axis m=4096 --axis n=4096 --axis k=4096 (docs/performance.md).
      .valid([](const Params& p, Backend backend) {
        if (backend == Backend::cpu) return true;
        return p["tile"] % kFragment == 0 && p["wg"] % 32 == 0 && p["m"] % p["tile"] == 0 &&
               p["n"] % p["tile"] == 0 && p["k"] % kBK == 0;
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const auto m = std::uint32_t(p["m"]), n = std::uint32_t(p["n"]), k = std::uint32_t(p["k"]);
        const auto wg = std::uint32_t(p["wg"]), tile = std::uint32_t(p["tile"]);
        // A device without workgroup-scope matrices is skipped by the shader's capabilities.
        if (limits.cooperative_matrix_workgroup && wg > limits.matrix_workgroup_max_invocations)
          throw Error("matmul_bf16: wg=" + std::to_string(wg) + " is over the device's " +
                      std::to_string(limits.matrix_workgroup_max_invocations) +
                      " invocations for workgroup-scope matrices");
        const std::int64_t shared = tensor_staged_shared_bytes(tile, tile, kBK, 1);
        if (shared > std::int64_t(limits.max_shared_memory_bytes))
          throw Error("matmul_bf16: tile=" + std::to_string(tile) + " needs " + std::to_string(shared) +
                      " bytes of shared memory");
        Dispatch d;
        d.bindings = {"a", "b", "c"};
        d.push_constants = {m, n, k};
        d.stage = "matmul_bf16";
        d.shader = "matmul_bf16/matmul_bf16_workgroup";
        d.specialization = {wg, tile, tile, std::uint32_t(kBK), 1, 0};
        d.groups = {n / tile, m / tile, 1};
        return VulkanPlan{{std::move(d)}};
      });
}
