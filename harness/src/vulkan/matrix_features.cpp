#include "vulkan/matrix_features.h"

#include <algorithm>
#include <cstring>

namespace perfgate::vk {
namespace {

// From the Vulkan registry (vk.xml): extension 507 (VK_KHR_cooperative_matrix), 594
// (VK_NV_cooperative_matrix2) and 142 (VK_KHR_shader_bfloat16).
constexpr const char* kKhrName = "VK_KHR_cooperative_matrix";
constexpr const char* kNv2Name = "VK_NV_cooperative_matrix2";
constexpr const char* kBf16Name = "VK_KHR_shader_bfloat16";
constexpr auto kKhrFeatures = static_cast<VkStructureType>(1000506000);
constexpr auto kKhrProperties = static_cast<VkStructureType>(1000506001);  // VkCooperativeMatrixPropertiesKHR
constexpr auto kNv2Features = static_cast<VkStructureType>(1000593000);
constexpr auto kNv2FlexibleProperties = static_cast<VkStructureType>(1000593001);
constexpr auto kNv2Properties = static_cast<VkStructureType>(1000593002);
constexpr auto kBf16Features = static_cast<VkStructureType>(1000141000);
constexpr std::uint32_t kFloat16 = 0, kFloat32 = 1, kBfloat16 = 1000141000;  // VkComponentTypeKHR
constexpr std::uint32_t kScopeWorkgroup = 2, kScopeSubgroup = 3;             // VkScopeKHR

struct KhrProperties {  // VkCooperativeMatrixPropertiesKHR
  VkStructureType sType;
  void* pNext;
  std::uint32_t MSize, NSize, KSize;
  std::uint32_t AType, BType, CType, ResultType;
  VkBool32 saturatingAccumulation;
  std::uint32_t scope;
};
struct Nv2Properties {  // VkPhysicalDeviceCooperativeMatrix2PropertiesNV
  VkStructureType sType;
  void* pNext;
  std::uint32_t cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
  std::uint32_t cooperativeMatrixFlexibleDimensionsMaxDimension;
  std::uint32_t cooperativeMatrixWorkgroupScopeReservedSharedMemory;
};
struct FlexibleProperties {  // VkCooperativeMatrixFlexibleDimensionsPropertiesNV
  VkStructureType sType;
  void* pNext;
  std::uint32_t MGranularity, NGranularity, KGranularity;
  std::uint32_t AType, BType, CType, ResultType;
  VkBool32 saturatingAccumulation;
  std::uint32_t scope;
  std::uint32_t workgroupInvocations;
};

bool has(const std::vector<VkExtensionProperties>& all, const char* name) {
  return std::any_of(all.begin(), all.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

// Every entry of a vkGetPhysicalDevice*Properties* enumeration (`name`), each `blank` as given;
// none where the function is missing or fails.
template <class Entry>
std::vector<Entry> enumerate(VkInstance instance, VkPhysicalDevice device, const char* name, Entry blank) {
  using Fn = VkResult(VKAPI_PTR*)(VkPhysicalDevice, std::uint32_t*, Entry*);
  auto entries_of = reinterpret_cast<Fn>(vkGetInstanceProcAddr(instance, name));
  std::uint32_t count = 0;
  if (!entries_of || entries_of(device, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<Entry> all(count, blank);
  if (entries_of(device, &count, all.data()) != VK_SUCCESS) return {};
  return all;
}

// The shaders' shape: 16x16x16 f16 x f16 + f32 -> f32 on subgroups.
bool khr_offers_f16(VkInstance instance, VkPhysicalDevice device) {
  const auto all = enumerate(instance, device, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR",
                             KhrProperties{kKhrProperties});
  return std::any_of(all.begin(), all.end(), [](const KhrProperties& p) {
    return p.MSize == 16 && p.NSize == 16 && p.KSize == 16 && p.AType == kFloat16 && p.BType == kFloat16 &&
           p.CType == kFloat32 && p.ResultType == kFloat32 && p.scope == kScopeSubgroup;
  });
}

// The bf16 shaders' shape: bf16 x bf16 + f32 -> f32 at workgroup scope, flexible dimensions.
bool workgroup_offers_bf16(VkInstance instance, VkPhysicalDevice device) {
  const auto all = enumerate(instance, device, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV",
                             FlexibleProperties{kNv2FlexibleProperties});
  return std::any_of(all.begin(), all.end(), [](const FlexibleProperties& p) {
    return p.AType == kBfloat16 && p.BType == kBfloat16 && p.CType == kFloat32 && p.ResultType == kFloat32 &&
           p.scope == kScopeWorkgroup;
  });
}

}  // namespace

MatrixFeatures query_matrix_features(VkInstance instance, VkPhysicalDevice device, std::uint32_t api_version,
                                     const std::vector<VkExtensionProperties>& extensions) {
  MatrixFeatures offered;
  if (api_version < VK_API_VERSION_1_3 || !has(extensions, kKhrName)) return offered;
  VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  KhrMatrixFeatures khr{kKhrFeatures, nullptr, VK_FALSE, VK_FALSE};
  Nv2MatrixFeatures nv2{kNv2Features, nullptr,  VK_FALSE, VK_FALSE, VK_FALSE,
                        VK_FALSE,     VK_FALSE, VK_FALSE, VK_FALSE};
  Bfloat16Features bf16{kBf16Features, nullptr, VK_FALSE, VK_FALSE, VK_FALSE};
  const bool has_nv2 = has(extensions, kNv2Name);
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &features12;
  features12.pNext = &khr;
  if (has_nv2) khr.pNext = &nv2;
  if (has_nv2 && has(extensions, kBf16Name)) nv2.pNext = &bf16;
  vkGetPhysicalDeviceFeatures2(device, &features);
  // Every shader of theirs runs f16 arithmetic on 16-bit storage under the Vulkan memory model.
  if (!khr.cooperativeMatrix || !features12.shaderFloat16 || !features12.vulkanMemoryModel ||
      !khr_offers_f16(instance, device))
    return offered;
  offered.khr_f16 = true;
  // The workgroup-scope shaders also reduce rows, convert between uses and apply functions per
  // element (attention_fused_workgroup.comp): all or nothing, so that one flag says what is enabled.
  if (!has_nv2 || !nv2.cooperativeMatrixWorkgroupScope || !nv2.cooperativeMatrixFlexibleDimensions ||
      !nv2.cooperativeMatrixTensorAddressing || !nv2.cooperativeMatrixReductions ||
      !nv2.cooperativeMatrixConversions || !nv2.cooperativeMatrixPerElementOperations)
    return offered;
  Nv2Properties limits{kNv2Properties, nullptr, 0, 0, 0};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &limits;
  vkGetPhysicalDeviceProperties2(device, &properties);
  offered.workgroup_f16 = limits.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize > 0;
  offered.workgroup_max_invocations = limits.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
  offered.workgroup_bf16 = offered.workgroup_f16 && bf16.shaderBFloat16Type && bf16.shaderBFloat16CooperativeMatrix &&
                           workgroup_offers_bf16(instance, device);
  return offered;
}

MatrixFeatureChain::MatrixFeatureChain(const MatrixFeatures& offered, std::vector<const char*>& extensions,
                                       void** next) {
  if (!offered.khr_f16) return;
  extensions.push_back(kKhrName);
  khr_ = {kKhrFeatures, *next, VK_TRUE, VK_FALSE};
  *next = &khr_;
  if (!offered.workgroup_f16) return;
  extensions.push_back(kNv2Name);
  nv2_ = {kNv2Features, *next, VK_TRUE, VK_TRUE, VK_TRUE, VK_TRUE, VK_TRUE, VK_TRUE, VK_FALSE};
  *next = &nv2_;
  if (!offered.workgroup_bf16) return;
  extensions.push_back(kBf16Name);
  bf16_ = {kBf16Features, *next, VK_TRUE, VK_FALSE, VK_TRUE};
  *next = &bf16_;
}

}  // namespace perfgate::vk
