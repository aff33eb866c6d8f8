// A Dispatch's push-constant block from a C++ struct and its bindings in order; outputs of every
// element type compared with the reference.
#include <gtest/gtest.h>

#include <cstring>

#include "perfgate/buffers.h"
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

// An i32, a u32 and an f16 output, each compared as its values: right values pass, one wrong
// element fails naming its output.
TEST(CoreKernel, NonFloatOutputsAreComparedWithTheReference) {
  const KernelDef k = KernelDef("typed")
                          .buffers([](const Params&) {
                            return std::vector<BufferSpec>{{"i", ElementType::i32, 4, BufferRole::output},
                                                           {"u", ElementType::u32, 4, BufferRole::output},
                                                           {"h", ElementType::f16, 4, BufferRole::output}};
                          })
                          .reference(
                              [](const Params&, const Buffers&) {
                                return Expected{{"i", {-2, -1, 0, 7}}, {"u", {1, 2, 3, 4000000000.0}},
                                                {"h", {0.5, -1.25, 2, 0}}};
                              },
                              0.0, "integers and these halves are exact");
  const Params params;
  Buffers b(k.buffer_specs(params));
  const std::int32_t ints[] = {-2, -1, 0, 7};
  const std::uint32_t uints[] = {1, 2, 3, 4000000000u};
  const float halves[] = {0.5f, -1.25f, 2.0f, 0.0f};
  for (int n = 0; n < 4; ++n) {
    b.get<std::int32_t>("i")[n] = ints[n];
    b.get<std::uint32_t>("u")[n] = uints[n];
    b.get<std::uint16_t>("h")[n] = to_half(halves[n]);
  }
  const CheckResult right = k.verify(params, b);
  EXPECT_TRUE(right.ok) << right.detail;
  b.get<std::uint32_t>("u")[3] = 3999999999u;
  const CheckResult wrong = k.verify(params, b);
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.detail.find("u: rel L2 error"), std::string::npos) << wrong.detail;
}

}  // namespace perfgate
