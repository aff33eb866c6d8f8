#include "vulkan/device_features.h"

#include <spirv_cross_c.h>
#include <vulkan/vulkan.h>

#include <algorithm>

namespace perfgate::vk {
namespace {
constexpr std::uint32_t kCooperativeMatrixReductionsNV = 5430;
constexpr std::uint32_t kCooperativeMatrixConversionsNV = 5431;
constexpr std::uint32_t kCooperativeMatrixPerElementOperationsNV = 5432;
constexpr std::uint32_t kCooperativeMatrixBlockLoadsNV = 5434;
constexpr std::uint32_t kCooperativeMatrixTensorAddressingNV = 5433;
constexpr std::uint32_t kTensorAddressingNV = 5439;
constexpr std::uint32_t kCooperativeMatrixKHR = 6022;
constexpr std::uint32_t kBFloat16TypeKHR = 5116;
constexpr std::uint32_t kBFloat16CooperativeMatrixKHR = 5118;
}  // namespace

std::vector<std::string> missing_features(const ShaderInterface& shader, const DeviceFeatures& device) {
  auto subgroup = [&](VkSubgroupFeatureFlagBits bit) { return (device.subgroup_operations & bit) != 0; };
  std::vector<std::string> missing;
  auto need = [&](bool present, const char* name) {
    if (!present) missing.push_back(name);
  };
  for (std::uint32_t capability : shader.capabilities) {
    switch (static_cast<SpvCapability>(capability)) {
      case SpvCapabilityInt8: need(device.shader_int8, "shaderInt8"); break;
      case SpvCapabilityInt16: need(device.shader_int16, "shaderInt16"); break;
      case SpvCapabilityInt64: need(device.shader_int64, "shaderInt64"); break;
      case SpvCapabilityFloat16: need(device.shader_float16, "shaderFloat16"); break;
      case SpvCapabilityFloat64: need(device.shader_float64, "shaderFloat64"); break;
      case SpvCapabilityStorageBuffer8BitAccess: need(device.storage_buffer_8bit, "storageBuffer8BitAccess"); break;
      case SpvCapabilityUniformAndStorageBuffer8BitAccess:
        need(device.uniform_and_storage_buffer_8bit, "uniformAndStorageBuffer8BitAccess");
        break;
      case SpvCapabilityStoragePushConstant8: need(device.storage_push_constant_8, "storagePushConstant8"); break;
      case SpvCapabilityStorageBuffer16BitAccess:
        need(device.storage_buffer_16bit, "storageBuffer16BitAccess");
        break;
      case SpvCapabilityUniformAndStorageBuffer16BitAccess:
        need(device.uniform_and_storage_buffer_16bit, "uniformAndStorageBuffer16BitAccess");
        break;
      case SpvCapabilityStoragePushConstant16: need(device.storage_push_constant_16, "storagePushConstant16"); break;
      case SpvCapabilityDotProduct:
      case SpvCapabilityDotProductInputAll:
      case SpvCapabilityDotProductInput4x8Bit:
      case SpvCapabilityDotProductInput4x8BitPacked:
        need(device.integer_dot_product, "shaderIntegerDotProduct");
        break;
      case SpvCapabilityGroupNonUniform: need(subgroup(VK_SUBGROUP_FEATURE_BASIC_BIT), "subgroup basic"); break;
      case SpvCapabilityGroupNonUniformVote: need(subgroup(VK_SUBGROUP_FEATURE_VOTE_BIT), "subgroup vote"); break;
      case SpvCapabilityGroupNonUniformArithmetic:
        need(subgroup(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT), "subgroup arithmetic");
        break;
      case SpvCapabilityGroupNonUniformBallot: need(subgroup(VK_SUBGROUP_FEATURE_BALLOT_BIT), "subgroup ballot"); break;
      case SpvCapabilityGroupNonUniformShuffle:
        need(subgroup(VK_SUBGROUP_FEATURE_SHUFFLE_BIT), "subgroup shuffle");
        break;
      case SpvCapabilityGroupNonUniformShuffleRelative:
        need(subgroup(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT), "subgroup shuffle relative");
        break;
      case SpvCapabilityGroupNonUniformClustered:
        need(subgroup(VK_SUBGROUP_FEATURE_CLUSTERED_BIT), "subgroup clustered");
        break;
      case SpvCapabilityGroupNonUniformQuad: need(subgroup(VK_SUBGROUP_FEATURE_QUAD_BIT), "subgroup quad"); break;
      case SpvCapabilityVulkanMemoryModel: need(device.vulkan_memory_model, "vulkanMemoryModel"); break;
      default:
        switch (capability) {  // newer than Debian 12's SPIR-V headers: numbers from the SPIR-V registry
          case kCooperativeMatrixKHR:
            need(device.cooperative_matrix_khr, "cooperativeMatrix (VK_KHR_cooperative_matrix, f16)");
            break;
          case kBFloat16TypeKHR:
          case kBFloat16CooperativeMatrixKHR:
            need(device.bfloat16_matrix,
                 "shaderBFloat16Type and shaderBFloat16CooperativeMatrix (VK_KHR_shader_bfloat16) with bf16 "
                 "workgroup-scope matrices");
            break;
          case kCooperativeMatrixReductionsNV:
          case kCooperativeMatrixConversionsNV:
          case kCooperativeMatrixPerElementOperationsNV:
          case kCooperativeMatrixTensorAddressingNV:
          case kTensorAddressingNV:
          case kCooperativeMatrixBlockLoadsNV:
            need(device.cooperative_matrix_workgroup,
                 "cooperativeMatrixWorkgroupScope and cooperativeMatrixTensorAddressing (VK_NV_cooperative_matrix2)");
            break;
          default: break;  // core in Vulkan 1.2 compute (Shader, Int8 storage handled above, ...)
        }
    }
  }
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  return missing;
}

}  // namespace perfgate::vk
