#pragma once
// The optional device features a compute shader's SPIR-V capabilities need. perfgate enables
// every one of them the device has when it creates the device (a shader declaring
// StorageBuffer16BitAccess must not run without storageBuffer16BitAccess enabled: a Vulkan
// validity error that drivers forgive until they don't), and a case whose shader needs one the
// device lacks is skipped saying which.
#include <cstdint>
#include <string>
#include <vector>

#include "vulkan/shader_interface.h"

namespace perfgate::vk {

// Enabled on the device (names as in VkPhysicalDeviceVulkan1xFeatures).
struct DeviceFeatures {
  bool shader_int8 = false;
  bool shader_int16 = false;
  bool shader_int64 = false;
  bool shader_float16 = false;
  bool shader_float64 = false;
  bool storage_buffer_8bit = false;
  bool uniform_and_storage_buffer_8bit = false;
  bool storage_push_constant_8 = false;
  bool storage_buffer_16bit = false;
  bool uniform_and_storage_buffer_16bit = false;
  bool storage_push_constant_16 = false;
  bool integer_dot_product = false;
  bool vulkan_memory_model = false;
  bool cooperative_matrix_khr = false;        // VK_KHR_cooperative_matrix, f16 (matrix_features.h)
  bool cooperative_matrix_workgroup = false;  // VK_NV_cooperative_matrix2, workgroup scope
  bool bfloat16_matrix = false;               // VK_KHR_shader_bfloat16's type and cooperative matrices
  std::uint32_t subgroup_operations = 0;      // VkSubgroupFeatureFlags of compute shaders
};

// The Vulkan names of the features (or subgroup operations) the shader's capabilities need and
// `device` lacks; empty when it can run.
std::vector<std::string> missing_features(const ShaderInterface& shader, const DeviceFeatures& device);

}  // namespace perfgate::vk
