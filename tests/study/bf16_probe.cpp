// What a Vulkan device offers for bfloat16 (a study tool, not a test): whether it lists
// VK_KHR_shader_bfloat16, that extension's three feature bits, and every shape of
// vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR with its component types (bf16 marked). The
// structures and enum values are the Vulkan registry's (vk.xml: extension 142, VK_KHR_shader_bfloat16;
// extension 507, VK_KHR_cooperative_matrix), written out because Debian 12's headers predate them.
//   g++ -O2 -o /tmp/bf16_probe tests/study/bf16_probe.cpp -lvulkan && /tmp/bf16_probe
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr auto kBf16Features = static_cast<VkStructureType>(1000141000);
constexpr auto kMatrixProperties = static_cast<VkStructureType>(1000506001);
constexpr std::uint32_t kBf16 = 1000141000;  // VK_COMPONENT_TYPE_BFLOAT16_KHR

struct Bf16Features {  // VkPhysicalDeviceShaderBfloat16FeaturesKHR
  VkStructureType sType;
  void* pNext;
  VkBool32 shaderBFloat16Type, shaderBFloat16DotProduct, shaderBFloat16CooperativeMatrix;
};
struct MatrixProperties {  // VkCooperativeMatrixPropertiesKHR
  VkStructureType sType;
  void* pNext;
  std::uint32_t MSize, NSize, KSize, AType, BType, CType, ResultType;
  VkBool32 saturatingAccumulation;
  std::uint32_t scope;
};
using MatrixPropertiesFn = VkResult(VKAPI_PTR*)(VkPhysicalDevice, std::uint32_t*, MatrixProperties*);

const char* type_name(std::uint32_t t) {
  static const char* names[] = {"f16", "f32", "f64", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"};
  if (t == kBf16) return "BF16";
  return t < 11 ? names[t] : "other";
}

}  // namespace

int main() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance;
  if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) {
    std::puts("no Vulkan instance");
    return 1;
  }
  std::uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  auto properties_of = reinterpret_cast<MatrixPropertiesFn>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    std::uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(device, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> extensions(n);
    vkEnumerateDeviceExtensionProperties(device, nullptr, &n, extensions.data());
    bool listed = false;
    for (const auto& e : extensions) listed |= std::strcmp(e.extensionName, "VK_KHR_shader_bfloat16") == 0;
    std::printf("%s: VK_KHR_shader_bfloat16 %s\n", properties.deviceName, listed ? "listed" : "not listed");
    if (listed) {
      Bf16Features bf16{kBf16Features, nullptr, VK_FALSE, VK_FALSE, VK_FALSE};
      VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
      features.pNext = &bf16;
      vkGetPhysicalDeviceFeatures2(device, &features);
      std::printf(
          "  shaderBFloat16Type %u, shaderBFloat16DotProduct %u, shaderBFloat16CooperativeMatrix %u\n",
          bf16.shaderBFloat16Type, bf16.shaderBFloat16DotProduct, bf16.shaderBFloat16CooperativeMatrix);
    }
    std::uint32_t shapes = 0;
    if (!properties_of || properties_of(device, &shapes, nullptr) != VK_SUCCESS) continue;
    std::vector<MatrixProperties> all(
        shapes, MatrixProperties{kMatrixProperties, nullptr, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    properties_of(device, &shapes, all.data());
    for (const auto& p : all)
      std::printf("  coopmat %ux%ux%u %s x %s + %s -> %s scope %u%s\n", p.MSize, p.NSize, p.KSize,
                  type_name(p.AType), type_name(p.BType), type_name(p.CType), type_name(p.ResultType),
                  p.scope, p.saturatingAccumulation ? " saturating" : "");
  }
  vkDestroyInstance(instance, nullptr);
  return 0;
}
