#include "vulkan/pipeline_statistics.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "vulkan/vk_error.h"

namespace perfgate::vk {

bool offers_pipeline_statistics(VkPhysicalDevice device) {
  std::uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> all(count);
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, all.data()) != VK_SUCCESS) return false;
  if (std::none_of(all.begin(), all.end(), [](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0;
      }))
    return false;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR feature{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &feature;
  vkGetPhysicalDeviceFeatures2(device, &features);
  return feature.pipelineExecutableInfo == VK_TRUE;
}

double statistic_value(const VkPipelineExecutableStatisticKHR& statistic) {
  switch (statistic.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return statistic.value.b32 ? 1 : 0;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return double(statistic.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return double(statistic.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return statistic.value.f64;
    default: return 0;
  }
}

std::vector<ShaderStatistic> read_pipeline_statistics(VkDevice device, VkPipeline pipeline) {
  // Extension commands: the loader exports only the core ones.
  const auto executables_of = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
  const auto statistics_of = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  if (!executables_of || !statistics_of) return {};
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  std::uint32_t count = 0;
  check(executables_of(device, &info, &count, nullptr), "vkGetPipelineExecutablePropertiesKHR");
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  check(executables_of(device, &info, &count, executables.data()), "vkGetPipelineExecutablePropertiesKHR");
  std::vector<ShaderStatistic> out;
  for (std::uint32_t i = 0; i < count; ++i) {
    VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    executable.pipeline = pipeline;
    executable.executableIndex = i;
    std::uint32_t n = 0;
    check(statistics_of(device, &executable, &n, nullptr), "vkGetPipelineExecutableStatisticsKHR");
    std::vector<VkPipelineExecutableStatisticKHR> statistics(
        n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    check(statistics_of(device, &executable, &n, statistics.data()), "vkGetPipelineExecutableStatisticsKHR");
    const std::string prefix = count > 1 ? std::string(executables[i].name) + ": " : "";
    for (const auto& s : statistics) out.push_back({prefix + s.name, statistic_value(s)});
  }
  return out;
}

}  // namespace perfgate::vk
