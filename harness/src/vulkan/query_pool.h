#pragma once
// A pool of timestamp queries. Reset from the host (Vulkan 1.2 hostQueryReset) before each
// submit; read back as 64-bit values with wait, masked by the queue family's
// timestampValidBits and scaled by timestampPeriod.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace perfgate::vk {

class Context;

class TimestampPool {
 public:
  TimestampPool(const Context& context, std::uint32_t count);
  ~TimestampPool();
  TimestampPool(const TimestampPool&) = delete;
  TimestampPool& operator=(const TimestampPool&) = delete;

  VkQueryPool handle() const { return pool_; }
  std::uint32_t count() const { return count_; }
  void reset();
  // The raw values of queries [0, used), waiting until all are available (every one of them
  // must have been written by the submitted work).
  std::vector<std::uint64_t> ticks(std::uint32_t used) const;
  // Nanoseconds between two raw values of this pool.
  double delta_ns(std::uint64_t begin, std::uint64_t end) const;
  double period_ns() const { return period_ns_; }
  std::uint32_t valid_bits() const { return valid_bits_; }

 private:
  const Context& context_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  std::uint32_t count_ = 0;
  std::uint32_t valid_bits_ = 64;
  double period_ns_ = 1;
};

}  // namespace perfgate::vk
