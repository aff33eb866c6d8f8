// The GGML Q4_0 block layout: 18 bytes per 32 weights, an fp16 scale d then 16 bytes whose low
// nibbles are elements 0-15 and high nibbles elements 16-31, value = (nibble - 8) * d.
#include "kernels/common/q4_0.h"

#include <gtest/gtest.h>

#include <cstring>

#include "perfgate/registry.h"

namespace perfgate {
namespace {

namespace q4_0 = kernels::q4_0;

TEST(KernelsQ4_0, BlockIs18BytesFor32Weights) {
  EXPECT_EQ(q4_0::kBlockBytes, 18u);
  EXPECT_EQ(q4_0::kBlockWeights, 32u);
  const Params p({{"m", 3}, {"k", 64}});
  const auto specs = find_kernel("q4_0_matvec")->buffer_specs(p);
  EXPECT_EQ(specs[0].bytes(), 3u * 2 * 18);
}

TEST(KernelsQ4_0, LowNibbleIsElementJHighNibbleElementJPlus16) {
  std::uint8_t nibbles[32];
  for (int j = 0; j < 32; ++j) nibbles[j] = std::uint8_t(j % 16);
  nibbles[0] = 0x3;
  nibbles[16] = 0xa;
  std::uint8_t block[18];
  q4_0::encode(block, to_half(0.5f), nibbles);
  // d little-endian: 0.5 is 0x3800.
  EXPECT_EQ(block[0], 0x00);
  EXPECT_EQ(block[1], 0x38);
  EXPECT_EQ(block[2], 0xa3);  // element 16 high, element 0 low
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(block[2 + j] & 0x0f, nibbles[j]);
    EXPECT_EQ(block[2 + j] >> 4, nibbles[j + 16]);
  }
  EXPECT_EQ(q4_0::quant(block, 0), 0x3);
  EXPECT_EQ(q4_0::quant(block, 16), 0xa);
}

TEST(KernelsQ4_0, ValueIsNibbleMinus8TimesScale) {
  std::uint8_t nibbles[32];
  for (int j = 0; j < 32; ++j) nibbles[j] = std::uint8_t(j / 2);  // 0..15
  std::uint8_t block[18];
  q4_0::encode(block, to_half(-0.25f), nibbles);
  for (std::size_t j = 0; j < 32; ++j) EXPECT_EQ(q4_0::weight(block, j), (float(j / 2) - 8.0f) * -0.25f) << j;
  EXPECT_EQ(q4_0::weight(block, 0), 2.0f);     // nibble 0 -> -8 * d
  EXPECT_EQ(q4_0::weight(block, 31), -1.75f);  // nibble 15 -> 7 * d
}

TEST(KernelsQ4_0, QuantizeMatchesGgml) {
  // GGML: d = max / -8 with max the value of largest magnitude (-4 here), nibble = x / d + 8.5.
  float x[32];
  for (int j = 0; j < 32; ++j) x[j] = 0.25f * float(j % 16) - 2.0f;  // -2 .. 1.75
  x[5] = -4.0f;
  std::uint8_t block[18];
  q4_0::quantize(block, x);
  EXPECT_EQ(q4_0::scale(block), 0.5f);
  EXPECT_EQ(q4_0::quant(block, 5), 0);  // -4 / 0.5 + 8.5 = 0.5 -> 0
  for (int j = 0; j < 32; ++j)          // every x is a multiple of d / 2: within d / 2 after rounding
    EXPECT_NEAR(q4_0::weight(block, std::size_t(j)), x[j], 0.25f) << j;
  // -1.75 / 0.5 + 8.5 = 5 exactly: GGML rounds halves up, to nibble 5 = -1.5.
  EXPECT_EQ(q4_0::weight(block, 1), -1.5f);
}

TEST(KernelsQ4_0, MatvecDequantisesByTheLayout) {
  // One row of two blocks against x = e_j: y picks out single weights, exactly.
  const KernelDef& k = *find_kernel("q4_0_matvec");
  const Params p({{"m", 1}, {"k", 64}});
  Buffers buf(k.buffer_specs(p));
  std::uint8_t nibbles[32];
  for (int j = 0; j < 32; ++j) nibbles[j] = std::uint8_t(15 - j % 16);
  q4_0::encode(buf.get<std::uint8_t>("w").data(), to_half(1.0f), nibbles);
  for (int j = 0; j < 32; ++j) nibbles[j] = std::uint8_t(j % 16);
  q4_0::encode(buf.get<std::uint8_t>("w").data() + 18, to_half(2.0f), nibbles);
  auto x = buf.get<float>("x");
  for (std::size_t e : {0u, 15u, 16u, 31u, 32u, 47u, 48u, 63u}) {
    std::fill(x.begin(), x.end(), 0.0f);
    x[e] = 1.0f;
    k.run_cpu(p, buf);
    const float expected = e < 32 ? float(15 - int(e % 16) - 8) * 1.0f : float(int(e % 16) - 8) * 2.0f;
    EXPECT_EQ(buf.get<float>("y")[0], expected) << "element " << e;
  }
}

}  // namespace
}  // namespace perfgate
