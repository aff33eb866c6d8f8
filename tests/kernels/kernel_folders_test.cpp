// The layout of kernels/ that the build relies on: a kernel folder includes only its own files,
// kernels/common/... and perfgate/... (never another kernel's folder, whose files may move), and
// kernels/common holds no .cpp or .comp, which the build would take for a kernel or a shader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

const fs::path kKernels = fs::path(PERFGATE_SOURCE_DIR) / "kernels";

bool is_code(const fs::path& file) {
  const std::string ext = file.extension().string();
  return ext == ".cpp" || ext == ".h" || ext == ".comp" || ext == ".glsl";
}

// The quoted includes of a file that reach outside its folder other than through
// kernels/common/ or perfgate/, as "file:line: include".
std::vector<std::string> foreign_includes(const fs::path& file) {
  std::vector<std::string> found;
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string directive = "#include \"";
    if (line.rfind(directive, 0) != 0) continue;
    const std::size_t end = line.find('"', directive.size());
    const std::string target = line.substr(directive.size(), end - directive.size());
    const bool own = target.find('/') == std::string::npos;
    if (!own && target.rfind("kernels/common/", 0) != 0 && target.rfind("perfgate/", 0) != 0)
      found.push_back(file.string() + ":" + std::to_string(number) + ": " + target);
  }
  return found;
}

TEST(KernelFolders, IncludeOnlyTheirOwnFilesCommonAndPerfgate) {
  std::vector<std::string> foreign;
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kKernels)) {
    if (!entry.is_regular_file() || !is_code(entry.path())) continue;
    ++files;
    for (auto& f : foreign_includes(entry.path())) foreign.push_back(std::move(f));
  }
  EXPECT_GT(files, 20u);
  EXPECT_TRUE(foreign.empty()) << ::testing::PrintToString(foreign);
}

TEST(KernelFolders, CommonHoldsNoKernelOrShader) {
  std::size_t shared = 0;
  for (const auto& entry : fs::directory_iterator(kKernels / "common")) {
    const std::string ext = entry.path().extension().string();
    EXPECT_TRUE(ext == ".h" || ext == ".glsl") << entry.path();
    ++shared;
  }
  EXPECT_GT(shared, 0u);
}

}  // namespace
}  // namespace perfgate
