#include "core/path_within.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

TEST(PathWithin, RelativeInsideNulloptOutside) {
  const fs::path root = fs::temp_directory_path() / "perfgate-path-within";
  fs::create_directories(root / "baselines" / "cpu-x");
  fs::create_directories(root / "baselines-old");
  EXPECT_EQ(path_within(root / "baselines" / "cpu-x" / "c.yaml", root / "baselines"),
            fs::path("cpu-x/c.yaml"));
  EXPECT_EQ(path_within(root / "baselines", root), fs::path("baselines"));
  EXPECT_EQ(path_within(root / "baselines" / "", root / "baselines" / ""), fs::path("."));  // trailing "/"
  EXPECT_EQ(path_within(root / "baselines" / ".." / "x.yaml", root / "baselines"), std::nullopt);
  EXPECT_EQ(path_within(root / "baselines-old" / "c.yaml", root / "baselines"),
            std::nullopt);  // a prefix only
  EXPECT_EQ(path_within("/tmp/elsewhere.yaml", root), std::nullopt);
  fs::remove_all(root);
}

}  // namespace
}  // namespace perfgate
