#include "vulkan/query_pool.h"

#include "perfgate/error.h"
#include "vulkan/context.h"
#include "vulkan/timestamp_ticks.h"
#include "vulkan/vk_error.h"

namespace perfgate::vk {

TimestampPool::TimestampPool(const Context& context, std::uint32_t count)
    : context_(context),
      count_(count),
      valid_bits_(context.info().timestamp_valid_bits),
      period_ns_(context.limits().timestampPeriod) {
  VkQueryPoolCreateInfo create{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  create.queryType = VK_QUERY_TYPE_TIMESTAMP;
  create.queryCount = count;
  check(vkCreateQueryPool(context.device(), &create, nullptr, &pool_),
        "vkCreateQueryPool(" + std::to_string(count) + " timestamps)");
  reset();
}

TimestampPool::~TimestampPool() { vkDestroyQueryPool(context_.device(), pool_, nullptr); }

void TimestampPool::reset() { vkResetQueryPool(context_.device(), pool_, 0, count_); }

std::vector<std::uint64_t> TimestampPool::ticks(std::uint32_t used) const {
  if (used > count_)
    throw Error(std::to_string(used) + " timestamps read from a pool of " + std::to_string(count_));
  std::vector<std::uint64_t> values(used);
  check(vkGetQueryPoolResults(context_.device(), pool_, 0, used, values.size() * sizeof(std::uint64_t),
                              values.data(), sizeof(std::uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults(" + std::to_string(used) + " timestamps)");
  return values;
}

double TimestampPool::delta_ns(std::uint64_t begin, std::uint64_t end) const {
  return timestamp_delta_ns(begin, end, valid_bits_, period_ns_);
}

}  // namespace perfgate::vk
