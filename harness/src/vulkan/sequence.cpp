#include "vulkan/sequence.h"

#include <chrono>

#include "perfgate/error.h"
#include "vulkan/buffer.h"
#include "vulkan/context.h"
#include "vulkan/pipeline.h"
#include "vulkan/query_pool.h"
#include "vulkan/vk_error.h"

namespace perfgate::vk {

Sequence::Sequence(const Context& context) : context_(context) {
  const VkDevice device = context.device();
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.queueFamilyIndex = context.queue_family();
  check(vkCreateCommandPool(device, &pool, nullptr, &pool_), "vkCreateCommandPool");
  try {
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device, &allocate, &commands_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(device, &fence, nullptr, &fence_), "vkCreateFence");
  } catch (...) {
    vkDestroyCommandPool(device, pool_, nullptr);
    throw;
  }
}

Sequence::~Sequence() {
  const VkDevice device = context_.device();
  vkDestroyFence(device, fence_, nullptr);
  vkDestroyCommandPool(device, pool_, nullptr);  // frees the command buffer
}

void Sequence::begin() {
  check(vkResetCommandPool(context_.device(), pool_, 0), "vkResetCommandPool");
  VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  check(vkBeginCommandBuffer(commands_, &info), "vkBeginCommandBuffer");
}

void Sequence::end() { check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer"); }

double Sequence::submit_and_wait() {
  const VkDevice device = context_.device();
  check(vkResetFences(device, 1, &fence_), "vkResetFences");
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  const auto start = std::chrono::steady_clock::now();
  check(vkQueueSubmit(context_.queue(), 1, &submit, fence_), "vkQueueSubmit");
  check(vkWaitForFences(device, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

void Sequence::dispatch(const Pipeline& pipeline, const std::vector<std::uint32_t>& push_constants,
                        const std::array<std::uint32_t, 3>& groups) {
  const std::size_t push_bytes = push_constants.size() * sizeof(std::uint32_t);
  if (push_bytes != pipeline.push_constant_bytes())
    throw Error("shader " + pipeline.name() + ": " + std::to_string(push_bytes) +
                " bytes of push constants given, its layout has " +
                std::to_string(pipeline.push_constant_bytes()));
  vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  const std::vector<VkDescriptorSet>& sets = pipeline.descriptor_sets();
  if (!sets.empty())
    vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0,
                            static_cast<std::uint32_t>(sets.size()), sets.data(), 0, nullptr);
  if (push_bytes > 0)
    vkCmdPushConstants(commands_, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       static_cast<std::uint32_t>(push_bytes), push_constants.data());
  vkCmdDispatch(commands_, groups[0], groups[1], groups[2]);
}

void Sequence::barrier() {
  VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  memory.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0,
                       1, &memory, 0, nullptr, 0, nullptr);
}

void Sequence::barrier_to_host() {
  VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &memory,
                       0, nullptr, 0, nullptr);
}

void Sequence::write_timestamp(const TimestampPool& pool, std::uint32_t query) {
  if (query >= pool.count())
    throw Error("timestamp " + std::to_string(query) + " is outside its pool of " +
                std::to_string(pool.count()));
  vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool.handle(), query);
  barrier();
}

void Sequence::fill(const Buffer& buffer, std::uint32_t word) {
  vkCmdFillBuffer(commands_, buffer.handle(), 0, VK_WHOLE_SIZE, word);
}

void Sequence::copy(const Buffer& from, std::uint64_t from_offset, const Buffer& to, std::uint64_t to_offset,
                    std::uint64_t bytes) {
  const VkBufferCopy region{from_offset, to_offset, bytes};
  vkCmdCopyBuffer(commands_, from.handle(), to.handle(), 1, &region);
}

}  // namespace perfgate::vk
