#include "store/json_lines.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <map>
#include <vector>

#include "core/file_lock.h"
#include "store_fixture.h"

namespace perfgate {
namespace {

using StoreJsonLines = testing::StoreTest;

// One append as every writer makes it: under the file's writers' lock.
void append_locked(const std::filesystem::path& file, const std::string& lines) {
  const FileLock lock(file.string() + ".lock", std::chrono::seconds(30), "writer of this log");
  append_json_lines(file, lines, "log entry", lock);
}

std::vector<nlohmann::json> all_json_lines(const std::filesystem::path& file) {
  std::vector<nlohmann::json> values;
  for_each_json_line(file, "log entry", [&](const nlohmann::json& j) { values.push_back(j); });
  return values;
}

std::string what_throws(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST_F(StoreJsonLines, AppendsWholeLinesAndReadsThemBackSkippingBlankOnes) {
  const auto file = dir_ / "sub" / "ALERTED.log";
  std::filesystem::create_directories(file.parent_path());
  EXPECT_TRUE(all_json_lines(file).empty());  // a missing file has no lines
  append_locked(file, "{\"id\": 1}\n{\"id\": 2}\n");
  std::ofstream(file, std::ios::app) << "\n \t\r\n";  // blank lines, as an editor may leave them
  append_locked(file, "{\"id\": 3}\n");
  const auto values = all_json_lines(file);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[2].at("id"), 3);
  // Line numbers count the blank lines: the error names the line an editor shows.
  std::ofstream(file, std::ios::app) << "{broken\n";
  EXPECT_NE(what_throws([&] { all_json_lines(file); }).find("ALERTED.log:6: not a log entry"),
            std::string::npos);
}

TEST_F(StoreJsonLines, ATornLastLineIsRefusedAndNothingIsAppended) {
  const auto file = dir_ / "ACKNOWLEDGED.log";
  append_locked(file, "{\"id\": 1}\n");
  std::ofstream(file, std::ios::app) << "{\"id\": 2, \"by\": \"al";  // a writer killed mid-line
  const auto size = std::filesystem::file_size(file);
  const std::string error = what_throws([&] { append_locked(file, "{\"id\": 3}\n"); });
  EXPECT_NE(error.find("ACKNOWLEDGED.log:2: the last log entry was cut short (no end of line)"),
            std::string::npos)
      << error;
  EXPECT_EQ(std::filesystem::file_size(file), size);
  EXPECT_NE(what_throws([&] { refuse_cut_last_line(file, "log entry"); }).find(":2:"), std::string::npos);
  EXPECT_NE(what_throws([&] { all_json_lines(file); }).find("ACKNOWLEDGED.log:2: not a log entry"),
            std::string::npos);
  EXPECT_NO_THROW(refuse_cut_last_line(dir_ / "missing.log", "log entry"));
}

TEST_F(StoreJsonLines, WhatNoReaderTakesIsRefusedBeforeAByteIsWritten) {
  const auto file = dir_ / "ALERTED.log";
  append_locked(file, "{\"id\": 1}\n");
  const auto size = std::filesystem::file_size(file);
  EXPECT_FALSE(what_throws([&] { append_locked(file, "{\"id\": 2}"); }).empty());  // no end of line
  const std::string huge = "{\"id\": \"" + std::string(kMaxJsonLineBytes, 'x') + "\"}\n";
  EXPECT_NE(what_throws([&] { append_locked(file, "{\"id\": 2}\n" + huge); }).find("over the limit of 1 MiB"),
            std::string::npos);
  EXPECT_EQ(std::filesystem::file_size(file), size);
}

// Four processes append at once, each under the writers' lock: every line lands whole, once.
TEST_F(StoreJsonLines, ConcurrentAppendsFromProcessesLandWhole) {
  const auto file = dir_ / "history.jsonl";
  constexpr int kWriters = 4, kAppends = 40;
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      try {
        for (int i = 0; i < kAppends; ++i) {
          const nlohmann::json line = {
              {"writer", w}, {"i", i}, {"pad", std::string(3000, static_cast<char>('a' + w))}};
          append_locked(file, line.dump() + "\n" + line.dump() + "\n");  // two lines, one append
        }
      } catch (...) {
        code = 1;
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::map<std::pair<int, int>, int> seen;
  std::vector<nlohmann::json> values = all_json_lines(file);  // throws on a broken line
  ASSERT_EQ(values.size(), 2u * kWriters * kAppends);
  for (std::size_t n = 0; n < values.size(); n += 2) {
    EXPECT_EQ(values[n], values[n + 1]) << "an append's two lines were split by another writer's";
    ++seen[{values[n].at("writer").get<int>(), values[n].at("i").get<int>()}];
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kWriters * kAppends));
}

}  // namespace
}  // namespace perfgate
