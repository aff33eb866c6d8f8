#include "core/yaml_load.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <random>

#include "error_text.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

TEST(CoreYamlLoad, PlainYamlLoads) {
  const YAML::Node root =
      load_plain_yaml("a: 1\nb: [1, 2, 3]\nc: {d: \"*not an alias\", e: '&nor an anchor'}\n", "f.yaml");
  EXPECT_EQ(root["b"].size(), 3u);
  EXPECT_EQ(root["c"]["d"].Scalar(), "*not an alias");
}

TEST(CoreYamlLoad, AnchorsAndAliasesAreRefusedWithTheirLine) {
  EXPECT_EQ(testing::error_text([] {
              load_plain_yaml("a: 1\nr: &r [1, 2]\n", "f.yaml");
            }).rfind("f.yaml:2: an anchor", 0),
            0u);
  EXPECT_EQ(
      testing::error_text([] { load_plain_yaml("a: &x 1\n", "f.yaml"); }).rfind("f.yaml:1: an anchor", 0),
      0u);
  // The amplification the refusal exists for: one anchored list, many aliases.
  std::string text = "r: &r [1, 2, 3]\nall:\n";
  for (int i = 0; i < 1000; ++i) text += "  - *r\n";
  const std::string message = testing::error_text([&] { load_plain_yaml(text, "big.yaml"); });
  EXPECT_NE(message.find("big.yaml:1:"), std::string::npos) << message;
  EXPECT_NE(testing::error_text([] { load_plain_yaml("a: [1\n", "f.yaml"); }).find("f.yaml:"),
            std::string::npos);
}

TEST(CoreYamlLoad, MalformedStreamsEndInsteadOfLoopingOverDocuments) {
  // Found by tests/fuzz/baseline_fuzz: yaml-cpp's parser reports a next document forever here.
  std::ifstream in(std::string(PERFGATE_SOURCE_DIR) + "/tests/fuzz/corpus/baseline/multi_document_hang.yaml",
                   std::ios::binary);
  ASSERT_TRUE(in);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string message = testing::error_text([&] { load_plain_yaml(text, "hang.yaml"); });
  EXPECT_TRUE(message.empty() || message.starts_with("hang.yaml")) << message;
}

TEST(CoreYamlLoad, FilesOverTheLimitAreRefusedBeforeReading) {
  const auto file =
      std::filesystem::temp_directory_path() / ("perfgate-yaml-" + std::to_string(std::random_device{}()));
  std::ofstream(file) << std::string(2000, '#') << "\n";
  EXPECT_EQ(read_bounded_file(file, 4096).size(), 2001u);
  const std::string message = testing::error_text([&] { read_bounded_file(file, 1024); });
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  EXPECT_NE(message.find("limit of 1024 bytes"), std::string::npos) << message;
  std::filesystem::remove(file);
  EXPECT_NE(testing::error_text([&] { read_bounded_file(file, 1024); }).find(file.string()),
            std::string::npos);
}

TEST(CoreYamlLoad, UnknownAndRepeatedKeysNameFileLineAndKey) {
  const YAML::Node root = load_plain_yaml("a: 1\nlaughs: 2\n", "f.yaml");
  EXPECT_EQ(testing::error_text([&] {
              check_keys("f.yaml", root, "top", {"a", "b"});
            }),
            "f.yaml:2: top.laughs: unknown key (expected one of: a, b)");
  const YAML::Node twice = load_plain_yaml("a: 1\na: 2\n", "f.yaml");
  EXPECT_EQ(testing::error_text([&] { check_keys("f.yaml", twice, "", {}); }), "f.yaml:2: a: given twice");
  EXPECT_EQ(testing::error_text([&] { check_keys("f.yaml", root, "", {"a", "laughs"}); }), "");
}

}  // namespace
}  // namespace perfgate
