#include "vulkan/pipeline.h"

#include <algorithm>

#include "perfgate/error.h"
#include "vulkan/buffer.h"
#include "vulkan/context.h"
#include "vulkan/pipeline_statistics.h"
#include "vulkan/vk_error.h"

namespace perfgate::vk {

Pipeline::Pipeline(const Context& context, std::string name, std::span<const std::uint32_t> spirv,
                   const std::vector<PipelineBinding>& bindings, const std::vector<SpecConstant>& constants,
                   std::uint32_t push_constant_bytes)
    : context_(context), name_(std::move(name)), push_constant_bytes_(push_constant_bytes) {
  const VkDevice device = context.device();
  const auto& limits = context.limits();
  if (spirv.empty()) throw Error("shader " + name_ + " has no SPIR-V");
  if (push_constant_bytes > limits.maxPushConstantsSize)
    throw Error("shader " + name_ + ": " + std::to_string(push_constant_bytes) +
                " bytes of push constants, over maxPushConstantsSize " +
                std::to_string(limits.maxPushConstantsSize));
  std::uint32_t set_count = 0;
  for (const PipelineBinding& b : bindings) {
    const std::string where = "shader " + name_ + ", set " + std::to_string(b.set) + " binding " +
                              std::to_string(b.binding) + " (buffer " + b.buffer->name() + ")";
    if (b.offset_bytes % limits.minStorageBufferOffsetAlignment != 0)
      throw Error(where + ": offset " + std::to_string(b.offset_bytes) +
                  " is not a multiple of minStorageBufferOffsetAlignment " +
                  std::to_string(limits.minStorageBufferOffsetAlignment));
    if (b.offset_bytes + b.range_bytes > b.buffer->bytes() || b.offset_bytes >= b.buffer->bytes())
      throw Error(where + ": offset " + std::to_string(b.offset_bytes) + " and range " +
                  std::to_string(b.range_bytes) + " go past the buffer's " +
                  std::to_string(b.buffer->bytes()) + " bytes");
    const std::uint64_t range = b.range_bytes ? b.range_bytes : b.buffer->bytes() - b.offset_bytes;
    if (range > limits.maxStorageBufferRange)
      throw Error(where + ": " + size_text(range) + " bound, over maxStorageBufferRange (" +
                  size_text(limits.maxStorageBufferRange) + ")");
    set_count = std::max(set_count, b.set + 1);
  }
  const std::string what = "(" + name_ + ")";

  try {
    VkShaderModuleCreateInfo module{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module.codeSize = spirv.size_bytes();
    module.pCode = spirv.data();
    check(vkCreateShaderModule(device, &module, nullptr, &module_), "vkCreateShaderModule" + what);

    for (std::uint32_t set = 0; set < set_count; ++set) {
      std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
      for (const PipelineBinding& b : bindings)
        if (b.set == set)
          layout_bindings.push_back(
              {b.binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
      VkDescriptorSetLayoutCreateInfo set_layout{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      set_layout.bindingCount = static_cast<std::uint32_t>(layout_bindings.size());
      set_layout.pBindings = layout_bindings.data();
      set_layouts_.push_back(VK_NULL_HANDLE);
      check(vkCreateDescriptorSetLayout(device, &set_layout, nullptr, &set_layouts_.back()),
            "vkCreateDescriptorSetLayout" + what);
    }

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
    VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout.setLayoutCount = set_count;
    layout.pSetLayouts = set_layouts_.data();
    layout.pushConstantRangeCount = push_constant_bytes > 0 ? 1 : 0;
    layout.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(device, &layout, nullptr, &layout_), "vkCreatePipelineLayout" + what);

    std::vector<VkSpecializationMapEntry> entries(constants.size());
    std::vector<std::uint32_t> data(constants.size());
    for (std::size_t i = 0; i < constants.size(); ++i) {
      entries[i] = {constants[i].id, static_cast<std::uint32_t>(4 * i), 4};
      data[i] = constants[i].bits;
    }
    VkSpecializationInfo spec{};
    spec.mapEntryCount = static_cast<std::uint32_t>(entries.size());
    spec.pMapEntries = entries.data();
    spec.dataSize = data.size() * sizeof(std::uint32_t);
    spec.pData = data.data();

    VkComputePipelineCreateInfo create{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    create.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    create.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    create.stage.module = module_;
    create.stage.pName = "main";
    create.stage.pSpecializationInfo = constants.empty() ? nullptr : &spec;
    create.layout = layout_;
    if (context.info().pipeline_statistics) create.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &create, nullptr, &pipeline_),
          "vkCreateComputePipelines" + what);
    if (context.info().pipeline_statistics) statistics_ = read_pipeline_statistics(device, pipeline_);

    if (!bindings.empty()) {
      VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                static_cast<std::uint32_t>(bindings.size())};
      VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool.maxSets = set_count;
      pool.poolSizeCount = 1;
      pool.pPoolSizes = &size;
      check(vkCreateDescriptorPool(device, &pool, nullptr, &pool_), "vkCreateDescriptorPool" + what);
      VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      allocate.descriptorPool = pool_;
      allocate.descriptorSetCount = set_count;
      allocate.pSetLayouts = set_layouts_.data();
      sets_.assign(set_count, VK_NULL_HANDLE);
      check(vkAllocateDescriptorSets(device, &allocate, sets_.data()), "vkAllocateDescriptorSets" + what);

      std::vector<VkDescriptorBufferInfo> infos(bindings.size());
      std::vector<VkWriteDescriptorSet> writes(bindings.size());
      for (std::size_t i = 0; i < bindings.size(); ++i) {
        const PipelineBinding& b = bindings[i];
        infos[i] = {b.buffer->handle(), b.offset_bytes, b.range_bytes ? b.range_bytes : VK_WHOLE_SIZE};
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = sets_[b.set];
        writes[i].dstBinding = b.binding;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
      }
      vkUpdateDescriptorSets(device, static_cast<std::uint32_t>(writes.size()), writes.data(), 0, nullptr);
    }
  } catch (...) {
    release();
    throw;
  }
}

Pipeline::~Pipeline() { release(); }

void Pipeline::release() {
  const VkDevice device = context_.device();
  if (pool_) vkDestroyDescriptorPool(device, pool_, nullptr);
  if (pipeline_) vkDestroyPipeline(device, pipeline_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device, layout_, nullptr);
  for (VkDescriptorSetLayout set_layout : set_layouts_)
    if (set_layout) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
  if (module_) vkDestroyShaderModule(device, module_, nullptr);
  pool_ = VK_NULL_HANDLE;
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layouts_.clear();
  sets_.clear();
  module_ = VK_NULL_HANDLE;
}

}  // namespace perfgate::vk
