#pragma once
// A command buffer with its pool and fence: record once, submit as often as needed, wait.
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <vector>

namespace perfgate::vk {

class Buffer;
class Context;
class Pipeline;
class TimestampPool;

class Sequence {
 public:
  explicit Sequence(const Context& context);
  ~Sequence();
  Sequence(const Sequence&) = delete;
  Sequence& operator=(const Sequence&) = delete;

  // Discards what was recorded and starts recording anew.
  void begin();
  void end();
  // Submits what was recorded and waits for it; returns the host wall time from just before
  // vkQueueSubmit until the fence is signalled, in ns.
  double submit_and_wait();

  void dispatch(const Pipeline& pipeline, const std::vector<std::uint32_t>& push_constants,
                const std::array<std::uint32_t, 3>& groups);
  // Everything before (shader and transfer writes, timestamps) completes and is visible before
  // anything after starts.
  void barrier();
  // A timestamp once everything before has completed, then a barrier so that nothing after
  // starts before it is taken.
  // Transfer writes before it become visible to host reads after the fence (readback).
  void barrier_to_host();
  void write_timestamp(const TimestampPool& pool, std::uint32_t query);
  void fill(const Buffer& buffer, std::uint32_t word);
  void copy(const Buffer& from, std::uint64_t from_offset, const Buffer& to, std::uint64_t to_offset,
            std::uint64_t bytes);

 private:
  const Context& context_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace perfgate::vk
