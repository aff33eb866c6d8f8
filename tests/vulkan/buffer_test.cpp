// Device buffers: bytes uploaded through the staging buffer (in several chunks) come back
// unchanged; fills reach every word.
#include <gtest/gtest.h>

#include "vulkan/vulkan_fixture.h"

#ifdef PERFGATE_HAS_VULKAN
#include <cstring>
#include <random>
#include <vector>

#include "perfgate/error.h"
#include "vulkan/buffer.h"
#include "vulkan/context.h"
#include "vulkan/staging.h"

namespace perfgate {
namespace {

TEST(VulkanBuffer, RoundTripThroughSmallStagingChunks) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  vk::Context context("");
  const std::size_t bytes = 3 * 4096 + 12;  // four chunks, the last one partial
  std::vector<std::byte> data(bytes);
  std::mt19937_64 rng(7);
  for (auto& b : data) b = static_cast<std::byte>(rng());

  vk::Buffer buffer(context, bytes, vk::MemoryUse::device_local, "data");
  vk::Staging staging(context, 4096);
  staging.upload(data, buffer);
  std::vector<std::byte> back(bytes, std::byte{0});
  staging.download(buffer, back);
  EXPECT_EQ(std::memcmp(data.data(), back.data(), bytes), 0);
}

TEST(VulkanBuffer, FillReachesEveryWord) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  vk::Context context("");
  vk::Buffer buffer(context, 1 << 16, vk::MemoryUse::device_local, "filled");
  vk::Sequence sequence(context);
  sequence.begin();
  sequence.fill(buffer, 0xdeadbeefu);
  sequence.end();
  sequence.submit_and_wait();
  std::vector<std::uint32_t> words(buffer.bytes() / 4);
  vk::Staging staging(context, 1 << 20);
  staging.download(buffer, std::as_writable_bytes(std::span(words)));
  for (std::size_t i = 0; i < words.size(); ++i) ASSERT_EQ(words[i], 0xdeadbeefu) << "word " << i;
}

TEST(VulkanBuffer, OverTheAllocationLimitIsAClearError) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  vk::Context context("");
  const std::uint64_t limit = context.info().maintenance3.maxMemoryAllocationSize;
  try {
    vk::Buffer buffer(context, limit + 4096, vk::MemoryUse::device_local, "huge");
    FAIL() << "a buffer over maxMemoryAllocationSize was created";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("maxMemoryAllocationSize"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace perfgate
#endif
