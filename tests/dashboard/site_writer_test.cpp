// --out that is a symbolic link (to an empty folder, to a site, dangling) is refused, naming it,
// with nothing written where it points and the link left as it was.
#include "dashboard/site_writer.h"

#include <gtest/gtest.h>

#include "core/scratch_dir.h"
#include "error_text.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

TEST(DashboardSite, AnOutFolderThatIsALinkIsRefused) {
  ScratchDir dir("perfgate-dashboard-link");
  fs::create_directories(dir.path() / "empty");
  fs::create_directory_symlink(dir.path() / "empty", dir.path() / "to-empty");
  fs::create_directory_symlink(dir.path() / "nowhere", dir.path() / "dangling");
  for (const char* name : {"to-empty", "dangling"}) {
    bool built = false;
    const std::string why = ::perfgate::testing::error_text([&] {
      write_site(dir.path() / name, [&](const SiteDocumentSink&) {
        built = true;
        return nlohmann::json{{"items", nlohmann::json::array()}};
      });
    });
    EXPECT_NE(why.find("dashboard: --out " + (dir.path() / name).string() + " is a symbolic link"), std::string::npos)
        << name << ": " << why;
    EXPECT_FALSE(built) << name;
    EXPECT_TRUE(fs::is_symlink(dir.path() / name)) << name;
  }
  EXPECT_TRUE(fs::is_empty(dir.path() / "empty"));
  EXPECT_FALSE(fs::exists(dir.path() / "nowhere"));
}

}  // namespace
}  // namespace perfgate
