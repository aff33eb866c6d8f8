#include "store/approval_log.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "store_fixture.h"

namespace perfgate {
namespace {

using StoreApprovalLog = testing::StoreTest;

TEST_F(StoreApprovalLog, AppendsOneLinePerEntryAndReadsThemBack) {
  const auto log = dir_ / "APPROVALS.log";
  append_to_log(log, {{"2026-11-21T09:00:00Z", "approve", "copy/cpu/n=1", "alice", "faster loads\nline two",
                       "abc", "sha256:00", ""}});
  append_to_log(log,
                {{"2026-11-21T10:00:00Z", "drop", "copy/cpu/n=2", "bob", "retired", "def", "", "a note"}});
  const auto entries = read_log(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].by, "alice");
  EXPECT_EQ(entries[0].reason, "faster loads\nline two");
  EXPECT_EQ(entries[1].action, "drop");
  EXPECT_EQ(entries[1].note, "a note");
  std::ifstream in(log);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 2);
}

TEST_F(StoreApprovalLog, ConcurrentWritersNeverInterleave) {
  const auto log = dir_ / "APPROVALS.log";
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 50; ++i)
        append_to_log(log, {{"t", "approve", "case/" + std::to_string(w) + "/" + std::to_string(i),
                             std::string(200, static_cast<char>('a' + w)), "r", "c", "d", ""}});
    });
  for (auto& t : writers) t.join();
  const auto entries = read_log(log);  // throws on a broken line
  EXPECT_EQ(entries.size(), 200u);
}

}  // namespace
}  // namespace perfgate
