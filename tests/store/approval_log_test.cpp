#include "store/approval_log.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "core/file_lock.h"
#include "store/json_lines.h"
#include "store_fixture.h"

namespace perfgate {
namespace {

using StoreApprovalLog = testing::StoreTest;

// As an update appends them: under the folder's lock (store/update_journal.h).
void append_to_approval_log(const std::filesystem::path& log, const std::vector<ApprovalLogEntry>& entries) {
  const FileLock lock(log.parent_path() / ".lock", std::chrono::seconds(30));
  append_json_lines(log, log_text(entries), kApprovalLogEntry, lock);
}

TEST_F(StoreApprovalLog, AppendsOneLinePerEntryAndReadsThemBack) {
  const auto log = dir_ / "APPROVALS.log";
  append_to_approval_log(log, {{"2026-11-21T09:00:00Z", "approve", "copy/cpu/n=1", "alice",
                                "faster loads\nline two", "abc", "sha256:00", ""}});
  append_to_approval_log(
      log, {{"2026-11-21T10:00:00Z", "drop", "copy/cpu/n=2", "bob", "retired", "def", "", "a note"}});
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

TEST_F(StoreApprovalLog, ALineThatIsNoEntryNamesItsPlace) {
  const auto log = dir_ / "APPROVALS.log";
  append_to_approval_log(log, {{"t", "approve", "copy/cpu/n=1", "alice", "r", "c", "d", ""}});
  std::ofstream(log, std::ios::app) << "\n   \n{\"time\": \"t\"}\n";  // blank lines, then no `action`
  try {
    read_log(log);
    FAIL() << "an entry without its action must be an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("APPROVALS.log:4: not an approval log entry"), std::string::npos)
        << e.what();
  }
}

TEST_F(StoreApprovalLog, ConcurrentWritersNeverInterleave) {
  const auto log = dir_ / "APPROVALS.log";
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 50; ++i)
        append_to_approval_log(log, {{"t", "approve", "case/" + std::to_string(w) + "/" + std::to_string(i),
                                      std::string(200, static_cast<char>('a' + w)), "r", "c", "d", ""}});
    });
  for (auto& t : writers) t.join();
  const auto entries = read_log(log);  // throws on a broken line
  EXPECT_EQ(entries.size(), 200u);
}

}  // namespace
}  // namespace perfgate
