// matmul_bf16: C = A * B with bfloat16 A (m x k) and B (k x n), row-major, and float32
// accumulation and output: the GEMM of a bf16 model's prefill (bf16 keeps f32's exponent range,
// which is why training and many checkpoints use it). On tensor cores it is matmul_f16's fastest
// path with bf16 matrices: one workgroup-scope tile x 2 tile accumulator per workgroup
// (VK_NV_cooperative_matrix2 with VK_KHR_shader_bfloat16), A and B loaded through tensor layouts,
// the C tiles walked in bands of 16 tile rows (kernels/common/matmul_tensor_layout.glsl). A device
// without bf16 workgroup-scope matrices (llvmpipe) skips it naming the feature, and a build whose
// shader compiler does not know GL_EXT_bfloat16 names that.
#include <string>

#include "kernels/common/half_gemm.h"
#include "kernels/common/tensor_fragments.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

constexpr std::uint32_t kBand = 16;  // tile rows per band, as matmul_f16's fastest path (staged=14)

}  // namespace

PERFGATE_KERNEL(matmul_bf16) {
  return half_gemm(KernelDef("matmul_bf16"), ElementType::bf16, from_bfloat16, widen_bf16_row)
      .describe("C = A * B, A and B bfloat16, C float32 (f32 accumulation): tensor cores at workgroup scope")
      // The H100 figure is --axis m=4096 --axis n=4096 --axis k=4096 (docs/performance.md).
      .valid([](const Params& p, Backend backend) {
        if (backend == Backend::cpu) return true;
        return p["tile"] % kFragment == 0 && p["wg"] % 32 == 0 && p["m"] % p["tile"] == 0 &&
               p["n"] % (2 * p["tile"]) == 0 && p["k"] % kTensorLayoutBK == 0;
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const auto wg = std::uint32_t(p["wg"]), tile = std::uint32_t(p["tile"]);
        // A device without workgroup-scope matrices is skipped by the shader's capabilities.
        if (limits.cooperative_matrix_workgroup && wg > limits.matrix_workgroup_max_invocations)
          throw Error("matmul_bf16: wg=" + std::to_string(wg) + " is over the device's " +
                      std::to_string(limits.matrix_workgroup_max_invocations) +
                      " invocations for workgroup-scope matrices");
        return VulkanPlan{{tensor_layout_dispatch("matmul_bf16/matmul_bf16_tensor", "matmul_bf16", p, wg,
                                                  tile, 2 * tile, kBand)}};
      });
}
