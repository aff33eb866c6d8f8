#include "perfgate/buffers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "perfgate/error.h"
#include "perfgate/kernel.h"

namespace perfgate {

TEST(CoreHalf, RoundTripsEveryFiniteHalf) {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto h = static_cast<std::uint16_t>(bits);
    const float f = from_half(h);
    if (std::isnan(f)) continue;
    EXPECT_EQ(to_half(f), h) << "bits " << bits;
  }
}

TEST(CoreHalf, RoundsToNearestEven) {
  EXPECT_EQ(to_half(1.0f), 0x3c00);
  EXPECT_EQ(to_half(-2.0f), 0xc000);
  EXPECT_EQ(to_half(65504.0f), 0x7bff);
  EXPECT_EQ(to_half(1e6f), 0x7c00);  // overflow to infinity
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties go to even (1).
  EXPECT_EQ(to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(to_half(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_TRUE(std::isnan(from_half(to_half(NAN))));
}

TEST(CoreBuffers, NamedAccessAndUnknownName) {
  Buffers b({{"a", ElementType::f32, 8, BufferRole::input}, {"q", ElementType::u8, 18, BufferRole::input}});
  EXPECT_EQ(b.get<float>("a").size(), 8u);
  EXPECT_EQ(b["q"].data.size(), 18u);
  EXPECT_THROW(b["missing"], Error);
}

TEST(CoreCheck, RelativeL2ErrorRejectsPoison) {
  std::vector<float> actual{1, 2, 3};
  EXPECT_DOUBLE_EQ(relative_l2_error(actual, {1, 2, 3}), 0.0);
  actual[1] = NAN;
  EXPECT_TRUE(std::isinf(relative_l2_error(actual, {1, 2, 3})));
  EXPECT_TRUE(std::isinf(relative_l2_error(std::vector<float>{1, 2}, {1, 2, 3})));
  EXPECT_NEAR(relative_l2_error(std::vector<float>{1, 2, 4}, {1, 2, 3}), 1 / std::sqrt(14.0), 1e-12);
}

}  // namespace perfgate
