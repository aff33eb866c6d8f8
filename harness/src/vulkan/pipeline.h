#pragma once
// A compute pipeline with its shader module, descriptor set layout (one storage buffer per
// binding of set 0), pipeline layout (one push-constant range), specialization constants
// (constant_id i = word i) and the descriptor set that binds its buffers.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace perfgate::vk {

class Buffer;
class Context;

class Pipeline {
 public:
  Pipeline(const Context& context, std::string name, std::span<const std::uint32_t> spirv,
           const std::vector<const Buffer*>& bindings, const std::vector<std::uint32_t>& specialization,
           std::uint32_t push_constant_bytes);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  const std::string& name() const { return name_; }
  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  VkDescriptorSet descriptor_set() const { return set_; }
  std::uint32_t push_constant_bytes() const { return push_constant_bytes_; }

 private:
  void release();

  const Context& context_;
  std::string name_;
  std::uint32_t push_constant_bytes_ = 0;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace perfgate::vk
