#include "vulkan/staging.h"

#include <algorithm>
#include <cstring>

#include "perfgate/error.h"
#include "vulkan/context.h"
#include "vulkan/vk_error.h"

namespace perfgate::vk {
namespace {

std::uint64_t clamp_chunk(const Context& context, std::uint64_t bytes) {
  const std::uint64_t max_allocation = context.info().maintenance3.maxMemoryAllocationSize;
  bytes = std::max<std::uint64_t>(bytes, 4096);
  return max_allocation > 0 ? std::min(bytes, max_allocation) : bytes;
}

}  // namespace

Staging::Staging(const Context& context, std::uint64_t chunk_bytes)
    : staging_(context, clamp_chunk(context, chunk_bytes), MemoryUse::staging, "staging"),
      sequence_(context) {}

void Staging::upload(std::span<const std::byte> from, const Buffer& to) {
  if (from.size() > to.bytes())
    throw Error("upload of " + size_text(from.size()) + " into buffer " + to.name() + " of " +
                size_text(to.bytes()));
  for (std::uint64_t offset = 0; offset < from.size(); offset += staging_.bytes()) {
    const std::uint64_t bytes = std::min<std::uint64_t>(staging_.bytes(), from.size() - offset);
    std::memcpy(staging_.mapped(), from.data() + offset, bytes);
    sequence_.begin();
    sequence_.copy(staging_, 0, to, offset, bytes);
    sequence_.end();
    sequence_.submit_and_wait();
  }
}

void Staging::download(const Buffer& from, std::span<std::byte> to) {
  if (to.size() > from.bytes())
    throw Error("download of " + size_text(to.size()) + " from buffer " + from.name() + " of " +
                size_text(from.bytes()));
  for (std::uint64_t offset = 0; offset < to.size(); offset += staging_.bytes()) {
    const std::uint64_t bytes = std::min<std::uint64_t>(staging_.bytes(), to.size() - offset);
    sequence_.begin();
    sequence_.copy(from, offset, staging_, 0, bytes);
    sequence_.barrier_to_host();
    sequence_.end();
    sequence_.submit_and_wait();
    std::memcpy(to.data() + offset, staging_.mapped(), bytes);
  }
}

}  // namespace perfgate::vk
