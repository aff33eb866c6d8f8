#pragma once
// What the driver says of a compiled pipeline (VK_KHR_pipeline_executable_properties): its
// statistics by the driver's own names, such as the registers an invocation takes or the bytes
// it spills, which decide how many workgroups a multiprocessor holds at once.
#include <vulkan/vulkan.h>

#include <vector>

#include "perfgate/result.h"

namespace perfgate::vk {

// A statistic's value as a number, whatever its format (a boolean as 0 or 1).
double statistic_value(const VkPipelineExecutableStatisticKHR& statistic);

// The statistics of every executable of `pipeline`, created with
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR on a device with the feature enabled; where a
// pipeline has several executables, each name is prefixed with its executable's. Empty where the
// driver's queries fail: a diagnostic never stops a measurement.
std::vector<ShaderStatistic> read_pipeline_statistics(VkDevice device, VkPipeline pipeline);

}  // namespace perfgate::vk
