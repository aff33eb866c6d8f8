// A Dispatch's push-constant block from a C++ struct and its bindings in order.
#include <gtest/gtest.h>

#include <cstring>

#include "perfgate/kernel.h"

namespace perfgate {
namespace {

struct OddBlock {  // 3 words and a byte: padded with zeros to 4 words
  std::uint32_t n;
  float scale;
  float bias;
  std::uint8_t flag;
};

}  // namespace

TEST(CoreDispatch, PushCopiesAStructIntoWholeWords) {
  Dispatch d;
  d.push(OddBlock{7, 0.5f, -2.0f, 1});
  ASSERT_EQ(d.push_constants.size(), (sizeof(OddBlock) + 3) / 4);
  EXPECT_EQ(d.push_constants[0], 7u);
  float scale = 0;
  std::memcpy(&scale, &d.push_constants[1], sizeof scale);
  EXPECT_EQ(scale, 0.5f);
  float bias = 0;
  std::memcpy(&bias, &d.push_constants[2], sizeof bias);
  EXPECT_EQ(bias, -2.0f);
  EXPECT_EQ(d.push_constants[3] & 0xffu, 1u);
}

TEST(CoreDispatch, AllBindingsAreSetZeroInOrderThenTheBoundOnes) {
  Dispatch d;
  d.bindings = {"x", "y"};
  d.bound = {{.set = 1, .binding = 3, .buffer = "w", .offset_bytes = 256, .range_bytes = 1024}};
  const auto all = d.all_bindings();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].set, 0u);
  EXPECT_EQ(all[0].binding, 0u);
  EXPECT_EQ(all[0].buffer, "x");
  EXPECT_EQ(all[1].binding, 1u);
  EXPECT_EQ(all[1].buffer, "y");
  EXPECT_EQ(all[2].set, 1u);
  EXPECT_EQ(all[2].binding, 3u);
  EXPECT_EQ(all[2].offset_bytes, 256u);
  EXPECT_EQ(all[2].range_bytes, 1024u);
}

}  // namespace perfgate
