// The one rule for every file perfgate appends to or locks: never through a symbolic link. A
// link to a file and a dangling link are refused, naming them; the file a link points to is left
// as it was, and a dangling link's target is never created.
#include "core/no_link.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/file_lock.h"
#include "core/scratch_dir.h"
#include "error_text.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;
using testing::error_text;

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(NoLink, OpensAPlainFileAndRefusesALink) {
  ScratchDir dir("perfgate-no-link");
  const int fd = open_no_link(dir.path() / "plain.log", O_WRONLY | O_CREAT | O_APPEND, 0644, "the log");
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(dir.path() / "target") << "precious\n";
  fs::create_symlink(dir.path() / "target", dir.path() / "link.log");
  fs::create_symlink(dir.path() / "nowhere", dir.path() / "dangling.log");
  for (const char* name : {"link.log", "dangling.log"}) {
    const std::string why =
        error_text([&] { open_no_link(dir.path() / name, O_WRONLY | O_CREAT | O_APPEND, 0644, "the log"); });
    EXPECT_NE(why.find("the log " + (dir.path() / name).string() + " is a symbolic link"), std::string::npos)
        << why;
  }
  EXPECT_EQ(text_of(dir.path() / "target"), "precious\n");
  EXPECT_FALSE(fs::exists(dir.path() / "nowhere"));
}

TEST(NoLink, ALockIsNeverTakenThroughALink) {
  ScratchDir dir("perfgate-no-link-lock");
  std::ofstream(dir.path() / "target") << "precious\n";
  fs::create_symlink(dir.path() / "target", dir.path() / "held.lock");
  fs::create_symlink(dir.path() / "nowhere", dir.path() / "dangling.lock");
  for (const char* name : {"held.lock", "dangling.lock"}) {
    const std::string why =
        error_text([&] { FileLock lock(dir.path() / name, std::chrono::milliseconds(0)); });
    EXPECT_NE(why.find("is a symbolic link"), std::string::npos) << name << ": " << why;
    EXPECT_TRUE(fs::is_symlink(dir.path() / name));
  }
  EXPECT_EQ(text_of(dir.path() / "target"), "precious\n");  // neither truncated nor stamped with a pid
  EXPECT_FALSE(fs::exists(dir.path() / "nowhere"));
}

TEST(NoLink, AFolderThatIsALinkIsRefused) {
  ScratchDir dir("perfgate-no-link-folder");
  fs::create_directories(dir.path() / "outside");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "inside");
  EXPECT_NE(error_text([&] {
              refuse_linked_folder(dir.path() / "inside", "the baselines folder");
            }).find("the baselines folder " + (dir.path() / "inside").string() + " is a symbolic link"),
            std::string::npos);
  EXPECT_EQ(error_text([&] { refuse_linked_folder(dir.path() / "outside", "the baselines folder"); }), "");
  EXPECT_EQ(error_text([&] { refuse_linked_folder(dir.path() / "missing", "the baselines folder"); }), "");
}

// The rule holds by construction: every file the harness appends to, locks or creates by open(2)
// is opened by open_no_link, or is the atomic writer's fresh temporary file (O_EXCL, renamed over
// the name, which replaces a link rather than writing through it). A new ::open with O_CREAT or
// O_APPEND, an append-mode stream or an fopen elsewhere fails here. (A whole file written into a
// folder the command made afresh, as a site's pages, is not an append.)
TEST(NoLink, EveryFileTheHarnessAppendsToGoesThroughTheRule) {
  const fs::path src = fs::path(PERFGATE_SOURCE_DIR) / "harness" / "src";
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    if (entry.path().extension() != ".cpp" && entry.path().extension() != ".h") continue;
    std::ifstream in(entry.path());
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      const std::size_t code = line.find_first_not_of(' ');
      if (code == std::string::npos || line.compare(code, 2, "//") == 0) continue;
      const bool writes =
          line.find("O_CREAT") != std::string::npos || line.find("O_APPEND") != std::string::npos ||
          line.find("ios::app") != std::string::npos || line.find("fopen(") != std::string::npos;
      const bool ruled =
          line.find("open_no_link(") != std::string::npos ||
          (entry.path().filename() == "atomic_file.cpp" && line.find("O_EXCL") != std::string::npos);
      if (writes && !ruled)
        found.push_back(fs::relative(entry.path(), src).string() + ":" + std::to_string(number) + ": " +
                        line);
    }
  }
  EXPECT_EQ(found, std::vector<std::string>{});
}

}  // namespace
}  // namespace perfgate
