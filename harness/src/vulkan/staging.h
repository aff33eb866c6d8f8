#pragma once
// Moves bytes between host memory and device-local buffers through one host-visible staging
// buffer, in chunks, so a 1 GiB buffer needs no 1 GiB host-visible allocation.
#include <cstddef>
#include <cstdint>
#include <span>

#include "vulkan/buffer.h"
#include "vulkan/sequence.h"

namespace perfgate::vk {

class Staging {
 public:
  // `chunk_bytes`: the staging buffer's size (clamped to maxMemoryAllocationSize).
  Staging(const Context& context, std::uint64_t chunk_bytes);

  void upload(std::span<const std::byte> from, const Buffer& to);
  void download(const Buffer& from, std::span<std::byte> to);

 private:
  Buffer staging_;
  Sequence sequence_;
};

}  // namespace perfgate::vk
