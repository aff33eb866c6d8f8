#pragma once
// Tensor cores through the two newer cooperative-matrix extensions, beside VK_NV_cooperative_matrix
// (context.cpp): VK_KHR_cooperative_matrix (subgroup scope, GL_KHR_cooperative_matrix) and
// VK_NV_cooperative_matrix2 (workgroup scope, flexible dimensions, tensor addressing,
// GL_NV_cooperative_matrix2), the latter also on bfloat16 (VK_KHR_shader_bfloat16,
// GL_EXT_bfloat16). Their shaders are SPIR-V 1.6, so both need a Vulkan 1.3 device.
// Debian 12's Vulkan headers (1.3.239) predate these extensions: their structures are declared
// here, as the Vulkan registry defines them.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace perfgate::vk {

struct MatrixFeatures {
  bool khr_f16 = false;        // VK_KHR_cooperative_matrix 16x16x16 f16 x f16 + f32, subgroup scope
  bool workgroup_f16 = false;  // and VK_NV_cooperative_matrix2 with workgroup scope, flexible
                               // dimensions, tensor addressing, reductions, conversions between
                               // uses and per-element operations
  std::uint32_t workgroup_max_invocations = 0;  // cooperativeMatrixWorkgroupScopeMaxWorkgroupSize
  bool workgroup_bf16 = false;  // and VK_KHR_shader_bfloat16's type and cooperative matrices, with
                                // bf16 x bf16 + f32 among the workgroup scope's flexible dimensions
};

// VkPhysicalDeviceCooperativeMatrixFeaturesKHR, VkPhysicalDeviceCooperativeMatrix2FeaturesNV and
// VkPhysicalDeviceShaderBfloat16FeaturesKHR.
struct KhrMatrixFeatures {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrix;
  VkBool32 cooperativeMatrixRobustBufferAccess;
};
struct Nv2MatrixFeatures {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrixWorkgroupScope;
  VkBool32 cooperativeMatrixFlexibleDimensions;
  VkBool32 cooperativeMatrixReductions;
  VkBool32 cooperativeMatrixConversions;
  VkBool32 cooperativeMatrixPerElementOperations;
  VkBool32 cooperativeMatrixTensorAddressing;
  VkBool32 cooperativeMatrixBlockLoads;
};
struct Bfloat16Features {
  VkStructureType sType;
  void* pNext;
  VkBool32 shaderBFloat16Type;
  VkBool32 shaderBFloat16DotProduct;
  VkBool32 shaderBFloat16CooperativeMatrix;
};

// What the device offers (all false below Vulkan 1.3 or without the extensions).
MatrixFeatures query_matrix_features(VkInstance instance, VkPhysicalDevice device, std::uint32_t api_version,
                                     const std::vector<VkExtensionProperties>& extensions);

// The feature structures that enable what `offered` says, for a VkDeviceCreateInfo's chain.
class MatrixFeatureChain {
 public:
  // Appends the extensions to `extensions` and links the structures in front of `*next`.
  MatrixFeatureChain(const MatrixFeatures& offered, std::vector<const char*>& extensions, void** next);

 private:
  KhrMatrixFeatures khr_{};
  Nv2MatrixFeatures nv2_{};
  Bfloat16Features bf16_{};
};

}  // namespace perfgate::vk
