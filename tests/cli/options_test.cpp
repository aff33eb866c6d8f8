// The selection options every measuring command shares.
#include "cli/options.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <set>

#include "perfgate/error.h"

namespace perfgate {
namespace {

CommonOptions parse(std::vector<std::string> args) {
  CLI::App app;
  CommonOptions o;
  add_selection_options(app, o);
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector in reverse order
  app.parse(args);
  return o;
}

TEST(CliOptions, KernelRepeatsAndEachTakesOneGlob) {
  const CommonOptions o = parse({"--kernel", "attention_fused", "--kernel", "attention_layer", "copy/cpu/*"});
  EXPECT_EQ(o.kernel_globs, (std::vector<std::string>{"attention_fused", "attention_layer"}));
  EXPECT_EQ(o.cases, (std::vector<std::string>{"copy/cpu/*"}));
  const Selection s = o.selection({Backend::cpu});
  EXPECT_EQ(s.kernel_globs, o.kernel_globs);
}

TEST(CliOptions, AKernelGlobSelectsEveryKernelItMatches) {
  CommonOptions o = parse({"--kernel", "copy", "--kernel", "fill", "--backend", "cpu"});
  std::set<std::string> kernels;
  for (const auto& c : select_cases(o.selection({Backend::cpu}))) kernels.insert(c.kernel->name());
  EXPECT_EQ(kernels, (std::set<std::string>{"copy", "fill"}));
  o = parse({"--kernel", "copy", "--kernel", "nosuch*"});
  EXPECT_THROW(select_cases(o.selection({Backend::cpu})), Error);
}

}  // namespace
}  // namespace perfgate
