// Element types beyond f32 (bf16, i8, u16) and opaque blocks with a decode of their own, compared
// with a float64 reference as their values; a wrong element is caught in each.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "perfgate/buffers.h"
#include "perfgate/error.h"
#include "perfgate/kernel.h"

namespace perfgate {
namespace {

TEST(CoreBfloat16, RoundsToNearestEvenAndKeepsNaN) {
  EXPECT_EQ(to_bfloat16(1.0f), 0x3f80);
  EXPECT_EQ(to_bfloat16(-2.0f), 0xc000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to even (1); 1 + 3 2^-8 up to 1 + 2^-6.
  EXPECT_EQ(to_bfloat16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(to_bfloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(to_bfloat16(3.4e38f), 0x7f80);  // rounds past the largest bf16: infinity
  EXPECT_TRUE(std::isnan(from_bfloat16(to_bfloat16(NAN))));
  EXPECT_TRUE(std::isnan(from_bfloat16(to_bfloat16(std::bit_cast<float>(0x7f800001u)))));  // not Inf
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = from_bfloat16(static_cast<std::uint16_t>(bits));
    if (std::isnan(f)) continue;
    EXPECT_EQ(to_bfloat16(f), bits);
  }
}

TEST(CoreElementTypes, SizesAndNames) {
  EXPECT_EQ(element_size(ElementType::bf16), 2u);
  EXPECT_EQ(element_size(ElementType::i8), 1u);
  EXPECT_EQ(element_size(ElementType::u16), 2u);
  EXPECT_EQ(to_string(ElementType::bf16), "bf16");
  EXPECT_EQ(to_string(ElementType::block), "block");
}

// y = round(2 x) (+ 64 for u16, which holds no negatives), x in f32, stored as `type`: small
// integers, exact in bf16, i8 and u16 alike.
KernelDef doubling(ElementType type) {
  const double offset = type == ElementType::u16 ? 64 : 0;
  return KernelDef("doubling")
      .axis("n", {64})
      .buffers([type](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", type, n, BufferRole::output}};
      })
      .fill([](const Params&, Buffers& b, Rng&) {
        auto x = b.get<float>("x");
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) - 31.75f;
      })
      .reference(
          [offset](const Params&, const Buffers& b) {
            std::vector<double> y;
            for (float v : b.get<float>("x")) y.push_back(std::round(2.0 * v) + offset);
            return Expected{{"y", y}};
          },
          0.0, "small integers are exact in every type here")
      .cpu([type, offset](const Params&, Buffers& b) {
        auto x = b.get<float>("x");
        for (std::size_t i = 0; i < x.size(); ++i) {
          const float v = std::round(2 * x[i]) + static_cast<float>(offset);
          if (type == ElementType::bf16) b.get<std::uint16_t>("y")[i] = to_bfloat16(v);
          if (type == ElementType::i8) b.get<std::int8_t>("y")[i] = static_cast<std::int8_t>(v);
          if (type == ElementType::u16) b.get<std::uint16_t>("y")[i] = static_cast<std::uint16_t>(v);
        }
      });
}

CheckResult run_and_verify(const KernelDef& kernel, const std::function<void(Buffers&)>& damage = {}) {
  const Params params({{"n", 64}});
  Buffers buffers(kernel.buffer_specs(params));
  Rng rng(3);
  kernel.fill_inputs(params, buffers, rng);
  kernel.run_cpu(params, buffers);
  if (damage) damage(buffers);
  return kernel.verify(params, buffers);
}

TEST(CoreElementTypes, Bf16I8AndU16OutputsAreComparedAsTheirValues) {
  for (ElementType type : {ElementType::bf16, ElementType::i8, ElementType::u16}) {
    SCOPED_TRACE(std::string(to_string(type)));
    const KernelDef kernel = doubling(type);
    const CheckResult right = run_and_verify(kernel);
    EXPECT_TRUE(right.ok) << right.detail;
    // One element's low bit flipped (a bf16's last mantissa bit, an integer off by one).
    const CheckResult wrong = run_and_verify(kernel, [](Buffers& b) { b["y"].data[10] ^= std::byte{0x01}; });
    EXPECT_FALSE(wrong.ok) << wrong.detail;
  }
}

TEST(CoreElementTypes, IntegersWidenWithTheirSign) {
  Buffers buffers(
      {{"u", ElementType::u16, 1, BufferRole::output}, {"i", ElementType::i8, 1, BufferRole::output}});
  buffers.get<std::uint16_t>("u")[0] = 65535;
  buffers.get<std::int8_t>("i")[0] = -128;
  EXPECT_EQ(element_values(buffers["u"])[0], 65535.0);
  EXPECT_EQ(element_values(buffers["i"])[0], -128.0);
}

// A Q8_0-style block: an f16 scale, then 32 int8 values (34 bytes); value i is scale * q[i].
std::shared_ptr<const BlockFormat> q8_0() {
  auto format = std::make_shared<BlockFormat>();
  format->name = "q8_0";
  format->bytes = 34;
  format->values = 32;
  format->decode = [](std::span<const std::byte> block, std::span<double> values) {
    std::uint16_t scale_bits;
    std::memcpy(&scale_bits, block.data(), 2);
    const double scale = from_half(scale_bits);
    for (std::size_t i = 0; i < 32; ++i)
      values[i] = scale * static_cast<double>(static_cast<std::int8_t>(block[2 + i]));
  };
  format->encode = [](std::span<const double> values, std::span<std::byte> block) {
    double amax = 0;
    for (double v : values) amax = std::max(amax, std::abs(v));
    const std::uint16_t scale_bits = to_half(static_cast<float>(amax / 127));
    std::memcpy(block.data(), &scale_bits, 2);
    const double scale = from_half(scale_bits);
    for (std::size_t i = 0; i < 32; ++i)
      block[2 + i] =
          static_cast<std::byte>(static_cast<std::int8_t>(scale > 0 ? std::round(values[i] / scale) : 0));
  };
  return format;
}

// Quantises x into Q8_0 blocks; the reference is x itself, within the quantisation error.
KernelDef quantize(std::shared_ptr<const BlockFormat> format) {
  return KernelDef("quantize")
      .axis("n", {64})
      .buffers([format](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       block_buffer("y", format, n / 32, BufferRole::output)};
      })
      .reference(
          [](const Params&, const Buffers& b) {
            auto x = b.get<float>("x");
            return Expected{{"y", std::vector<double>(x.begin(), x.end())}};
          },
          0.01, "8-bit quantisation: half a step of amax / 127 per value")
      .cpu([format](const Params&, Buffers& b) {
        auto x = b.get<float>("x");
        auto& y = b["y"];
        for (std::size_t k = 0; k < y.spec.count; ++k)
          format->encode(std::vector<double>(x.begin() + 32 * k, x.begin() + 32 * (k + 1)),
                         std::span<std::byte>(y.data.data() + 34 * k, 34));
      });
}

TEST(CoreBlocks, BlockOutputsAreComparedThroughTheirDecode) {
  const KernelDef kernel = quantize(q8_0());
  const CheckResult ok = run_and_verify(kernel);
  EXPECT_TRUE(ok.ok) << ok.detail;
  // A wrong quantised value (q[5] of block 1 off by 64 steps) is caught.
  const CheckResult wrong =
      run_and_verify(kernel, [](Buffers& b) { b["y"].data[34 + 2 + 5] ^= std::byte{0x40}; });
  EXPECT_FALSE(wrong.ok) << wrong.detail;
}

TEST(CoreBlocks, DefaultFillEncodesRandomValues) {
  const auto format = q8_0();
  Buffers buffers({block_buffer("w", format, 4, BufferRole::input)});
  EXPECT_EQ(buffers["w"].data.size(), 4u * 34);
  Rng rng(9);
  KernelDef("k").fill_inputs(Params(), buffers, rng);
  const std::vector<double> values = element_values(buffers["w"]);
  ASSERT_EQ(values.size(), 4u * 32);
  double amax = 0;
  for (double v : values) {
    ASSERT_TRUE(std::isfinite(v));
    amax = std::max(amax, std::abs(v));
  }
  EXPECT_GT(amax, 0.5);  // random values in [-1, 1], not zeros
  EXPECT_LE(amax, 1.01);
}

TEST(CoreBlocks, ABlockBufferWithoutFormatOrDecodeIsAnErrorNamingIt) {
  EXPECT_THROW(block_buffer("w", nullptr, 4, BufferRole::input), Error);
  const KernelDef no_format = KernelDef("k").buffers([](const Params&) {
    return std::vector<BufferSpec>{{"w", ElementType::block, 4, BufferRole::input}};
  });
  try {
    no_format.buffer_specs(Params());
    FAIL() << "a block buffer without a format was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel k: buffer 'w' holds blocks but has no BlockFormat"),
              std::string::npos)
        << e.what();
  }
  auto opaque = std::make_shared<BlockFormat>(*q8_0());
  opaque->decode = nullptr;
  Buffers buffers({block_buffer("w", opaque, 1, BufferRole::output)});
  try {
    element_values(buffers["w"]);
    FAIL() << "blocks without a decode were compared";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("buffer 'w' holds blocks with no decode"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace perfgate
