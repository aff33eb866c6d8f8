#include "vulkan/pipeline_statistics.h"

#include <string>

namespace perfgate::vk {

double statistic_value(const VkPipelineExecutableStatisticKHR& statistic) {
  switch (statistic.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return statistic.value.b32 ? 1 : 0;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return double(statistic.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return double(statistic.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return statistic.value.f64;
    default: return 0;
  }
}

namespace {

// A Vulkan query's two calls, its count then its items, each item with its sType set; none
// where either fails.
template <class Item, class Query>
std::vector<Item> query_all(Item blank, Query query) {
  std::uint32_t count = 0;
  if (query(&count, nullptr) != VK_SUCCESS) return {};
  std::vector<Item> items(count, blank);
  if (query(&count, items.data()) != VK_SUCCESS) return {};
  items.resize(count);
  return items;
}

}  // namespace

std::vector<ShaderStatistic> read_pipeline_statistics(VkDevice device, VkPipeline pipeline) {
  // A diagnostic: where the driver cannot say, the case is measured all the same.
  // Extension commands: the loader exports only the core ones.
  const auto executables_of = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
  const auto statistics_of = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  if (!executables_of || !statistics_of) return {};
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  const auto executables =
      query_all(VkPipelineExecutablePropertiesKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR},
                [&](std::uint32_t* n, VkPipelineExecutablePropertiesKHR* out) {
                  return executables_of(device, &info, n, out);
                });
  std::vector<ShaderStatistic> out;
  for (std::uint32_t i = 0; i < executables.size(); ++i) {
    VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    executable.pipeline = pipeline;
    executable.executableIndex = i;
    const auto statistics =
        query_all(VkPipelineExecutableStatisticKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR},
                  [&](std::uint32_t* n, VkPipelineExecutableStatisticKHR* s) {
                    return statistics_of(device, &executable, n, s);
                  });
    const std::string prefix = executables.size() > 1 ? std::string(executables[i].name) + ": " : "";
    for (const auto& s : statistics) out.push_back({prefix + s.name, statistic_value(s)});
  }
  return out;
}

}  // namespace perfgate::vk
