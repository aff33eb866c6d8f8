#pragma once
// Timestamp arithmetic (VK spec 18.5 "Timestamp Queries"): only the low timestampValidBits of a
// timestamp are meaningful, and one tick lasts timestampPeriod nanoseconds (1 on NVIDIA and
// llvmpipe, 10-80 on others): never assume 1 ns. Pure, so it is tested without a device.
#include <cstdint>

namespace perfgate::vk {

inline std::uint64_t timestamp_mask(std::uint32_t valid_bits) {
  return valid_bits >= 64 ? ~0ull : (1ull << valid_bits) - 1;
}

// Nanoseconds from `begin` to `end`. Masking the difference also handles a counter that wrapped
// once between the two.
inline double timestamp_delta_ns(std::uint64_t begin, std::uint64_t end, std::uint32_t valid_bits,
                                 double period_ns) {
  const std::uint64_t mask = timestamp_mask(valid_bits);
  const std::uint64_t ticks = ((end & mask) - (begin & mask)) & mask;
  return static_cast<double>(ticks) * period_ns;
}

}  // namespace perfgate::vk
