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

TEST(CoreCheck, ChunkedComparisonSeesEveryElementOfALargeOutput) {
  // Past several of the comparison's chunks, with the odd element in the last, partial one.
  const std::size_t n = 3 * 4096 + 17;
  Buffers b({{"y", ElementType::f32, n, BufferRole::output}});
  auto y = b.get<float>("y");
  std::vector<double> expected(n);
  for (std::size_t i = 0; i < n; ++i)
    y[i] = static_cast<float>(expected[i] = 1.0 + static_cast<double>(i % 7));
  const std::vector<double> values = element_values(b["y"]);
  ASSERT_EQ(values.size(), n);
  EXPECT_EQ(values[n - 1], expected[n - 1]);
  EXPECT_DOUBLE_EQ(relative_l2_error(y, expected), 0.0);
  y[n - 2] += 1;
  double norm = 0;
  for (double e : expected) norm += e * e;
  EXPECT_NEAR(relative_l2_error(y, expected), std::sqrt(1 / norm), 1e-12);
  y[5000] = NAN;
  EXPECT_TRUE(std::isinf(relative_l2_error(y, expected)));
  EXPECT_TRUE(std::isinf(relative_l2_error(y.first(n - 1), expected)));  // one element short
}

}  // namespace perfgate
