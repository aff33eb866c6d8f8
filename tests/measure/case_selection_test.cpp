#include <gtest/gtest.h>

#include "measure/case_selection.h"
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
  bad_kernel.kernel_glob = "nosuch*";
  EXPECT_THROW(select_cases(bad_kernel), Error);
  Selection bad_axis;
  bad_axis.kernel_glob = "copy";
  bad_axis.axes["tile"] = {16};
  EXPECT_THROW(select_cases(bad_axis), Error);
  Selection no_valid_point;  // rounds=0 would divide the vocabulary by zero
  no_valid_point.kernel_glob = "sampling";
  no_valid_point.backends = {Backend::vulkan};
  no_valid_point.axes["rounds"] = {0};
  EXPECT_THROW(select_cases(no_valid_point), Error);
}

TEST(MeasureSelection, AxisOverrideAndCaseIdRoundTrip) {
  Selection s;
  s.kernel_glob = "copy";
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

}  // namespace perfgate
