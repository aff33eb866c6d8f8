#include "measure/case_selection.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "error_text.h"
#include "perfgate/error.h"
#include "perfgate/registry.h"

namespace perfgate {

TEST(MeasureAxisOption, ListsSuffixesAndRanges) {
  auto [name, values] = parse_axis_option("n=1k,4M,7");
  EXPECT_EQ(name, "n");
  EXPECT_EQ(values, (std::vector<std::int64_t>{1024, 4 << 20, 7}));
  EXPECT_EQ(parse_axis_option("wg=32:256").second, (std::vector<std::int64_t>{32, 64, 128, 256}));
  EXPECT_EQ(parse_axis_option("t=16:64:+16").second, (std::vector<std::int64_t>{16, 32, 48, 64}));
  EXPECT_THROW(parse_axis_option("n"), Error);
  EXPECT_THROW(parse_axis_option("n=abc"), Error);
  EXPECT_THROW(parse_axis_option("n=4:2"), Error);
}

TEST(MeasureSelection, GlobsNarrowAndUnknownsAreErrors) {
  ASSERT_NE(find_kernel("copy"), nullptr) << "the perfgate_tests binary links the repository kernels";
  Selection s;
  s.case_globs = {"copy/cpu/*"};
  auto cases = select_cases(s);
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) EXPECT_EQ(c.id.rfind("copy/cpu/n=", 0), 0u) << c.id;

  Selection none;
  none.case_globs = {"nosuch/*"};
  EXPECT_THROW(select_cases(none), Error);
  Selection bad_kernel;
  bad_kernel.kernel_globs = {"nosuch*"};
  EXPECT_THROW(select_cases(bad_kernel), Error);
  Selection bad_axis;
  bad_axis.kernel_globs = {"copy"};
  bad_axis.axes["tile"] = {16};
  EXPECT_THROW(select_cases(bad_axis), Error);
  Selection no_valid_point;  // rounds=0 would divide the vocabulary by zero
  no_valid_point.kernel_globs = {"sampling"};
  no_valid_point.backends = {Backend::vulkan};
  no_valid_point.axes["rounds"] = {0};
  EXPECT_THROW(select_cases(no_valid_point), Error);
}

TEST(MeasureSelection, AxisOverrideAndCaseIdRoundTrip) {
  Selection s;
  s.kernel_globs = {"copy"};
  s.backends = {Backend::cpu};
  s.axes["n"] = {4096, 8192};
  auto cases = select_cases(s);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "copy/cpu/n=4096");
  CaseSpec parsed = parse_case_id("copy/cpu/n=4096");
  EXPECT_EQ(parsed.id, cases[0].id);
  EXPECT_EQ(parsed.params["n"], 4096);
  EXPECT_THROW(parse_case_id("copy/cpu/m=4"), Error);
  EXPECT_THROW(parse_case_id("copy/gpu/n=4"), Error);
  EXPECT_THROW(parse_case_id("nosuch/cpu/n=4"), Error);
}

TEST(MeasureAxisOption, OverflowsAndHugeRangesAreErrors) {
  EXPECT_EQ(parse_axis_option("n=8G").second, (std::vector<std::int64_t>{std::int64_t{8} << 30}));
  EXPECT_EQ(parse_axis_option("n=9223372036854775807").second,
            (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max()}));
  EXPECT_NE(testing::error_text([] {
              parse_axis_option("n=99999999999999G");
            }).find("'99999999999999G' is too large"),
            std::string::npos);
  EXPECT_NE(testing::error_text([] { parse_axis_option("n=9223372036854775808"); }).find("too large"),
            std::string::npos);
  EXPECT_NE(testing::error_text([] { parse_axis_option("n=8589934592G"); }).find("too large"),
            std::string::npos);
  EXPECT_NE(testing::error_text([] { parse_axis_option("n=12x"); }).find("unknown suffix"),
            std::string::npos);
  EXPECT_NE(testing::error_text([] { parse_axis_option("n= 12"); }).find("not an integer"),
            std::string::npos);
  // Doubling up to 2^63 - 1 ends at 2^62 instead of overflowing and running on.
  const auto doubling = parse_axis_option("n=1:9223372036854775807:x2").second;
  ASSERT_EQ(doubling.size(), 63u);
  EXPECT_EQ(doubling.back(), std::int64_t{1} << 62);
  const auto adding = parse_axis_option("n=9223372036854775800:9223372036854775807:+5").second;
  EXPECT_EQ(adding, (std::vector<std::int64_t>{9223372036854775800, 9223372036854775805}));
  EXPECT_EQ(parse_axis_option("n=1:4096:+1").second.size(), 4096u);
  EXPECT_NE(testing::error_text([] { parse_axis_option("n=1:4097:+1"); }).find("more than 4096 values"),
            std::string::npos);
  EXPECT_NE(
      testing::error_text([] { parse_axis_option("n=1:9223372036854775807:+1"); }).find("more than 4096"),
      std::string::npos);
}

TEST(MeasureSelection, AxisValuesOutsideTheKernelsLimitsAreErrors) {
  for (std::int64_t bad : {std::int64_t{0}, std::int64_t{-5}, std::int64_t{99999999999999}}) {
    Selection s;
    s.kernel_globs = {"copy"};
    s.backends = {Backend::cpu};
    s.axes["n"] = {4096, bad};
    const std::string message = testing::error_text([&] { select_cases(s); });
    EXPECT_NE(message.find("axis n=" + std::to_string(bad) +
                           " is out of range for kernel copy (allowed: 1 to 4294967296)"),
              std::string::npos)
        << message;
  }
  EXPECT_NE(testing::error_text([] { parse_case_id("copy/cpu/n=0"); }).find("axis n=0 is out of range"),
            std::string::npos);
  EXPECT_NE(
      testing::error_text([] { parse_case_id("copy/cpu/n=-4314853064373698560"); }).find("out of range"),
      std::string::npos);
  Selection square;  // each value allowed, their product past 2^62
  square.kernel_globs = {"q4_0_matvec"};
  square.backends = {Backend::cpu};
  square.axes["m"] = {std::int64_t{1} << 32};
  square.axes["k"] = {std::int64_t{1} << 32};
  EXPECT_NE(testing::error_text([&] { select_cases(square); }).find("multiply past 2^62"), std::string::npos);
}

}  // namespace perfgate
