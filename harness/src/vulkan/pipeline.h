#pragma once
// A compute pipeline with its shader module, descriptor set layouts (storage buffers, sets 0 up
// to the highest one bound; a set between them with nothing bound is empty), pipeline layout (one
// push-constant range), specialization constants (32 bits each, by constant_id) and the descriptor
// sets that bind its buffers, whole or a byte range each.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "perfgate/kernel.h"
#include "perfgate/result.h"

namespace perfgate::vk {

class Buffer;
class Context;

struct PipelineBinding {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  const Buffer* buffer = nullptr;
  std::uint64_t offset_bytes = 0;
  std::uint64_t range_bytes = 0;  // 0: to the end of the buffer
};

class Pipeline {
 public:
  // Throws Error naming the shader, the set and binding for an offset that is not a multiple of
  // minStorageBufferOffsetAlignment, a range past the buffer's end or over maxStorageBufferRange.
  Pipeline(const Context& context, std::string name, std::span<const std::uint32_t> spirv,
           const std::vector<PipelineBinding>& bindings, const std::vector<SpecConstant>& constants,
           std::uint32_t push_constant_bytes);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  const std::string& name() const { return name_; }
  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  // Sets 0, 1, ... in order, for one vkCmdBindDescriptorSets.
  const std::vector<VkDescriptorSet>& descriptor_sets() const { return sets_; }
  std::uint32_t push_constant_bytes() const { return push_constant_bytes_; }
  // What the driver reports of the compiled shader, where the device offers it
  // (vulkan/pipeline_statistics.h); else empty.
  const std::vector<ShaderStatistic>& statistics() const { return statistics_; }

 private:
  void release();

  const Context& context_;
  std::string name_;
  std::uint32_t push_constant_bytes_ = 0;
  VkShaderModule module_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSetLayout> set_layouts_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets_;
  std::vector<ShaderStatistic> statistics_;
};

}  // namespace perfgate::vk
