#include "store/update_journal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "core/atomic_file.h"
#include "perfgate/error.h"
#include "store/approval_log.h"
#include "store/baseline_file.h"
#include "store/baseline_update.h"
#include "store_fixture.h"

namespace perfgate {
namespace {

using StoreUpdateJournal = testing::StoreTest;
using testing::baseline_case;
using testing::candidate_of;

UpdateRequest journal_request() {
  UpdateRequest r;
  r.by = "mallory";
  r.reason = "killed halfway";
  r.at = "2026-11-25T04:00:00Z";
  r.lock_timeout = std::chrono::milliseconds(2000);
  return r;
}

bool present(const std::filesystem::path& file) {
  std::error_code ec;
  return std::filesystem::exists(file, ec);
}

// A real process approving copy and triad, killed once copy.yaml is new and triad.yaml not yet
// written: what a kill -9 between the two file writes leaves.
void approve_and_kill_between_files(const BaselineStore& store, const std::string& old_copy) {
  const Candidate candidate = candidate_of({"copy/cpu/n=1", "triad/cpu/n=1"}, 30);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    UpdateRequest r = journal_request();
    r.test_delay = std::chrono::milliseconds(1500);  // a loaded machine may wake the parent late
    try {
      approve_candidate(store, candidate, r);
    } catch (...) {
    }
    ::_exit(0);
  }
  const auto copy = store.kernel_file("cpu-test-2t", "copy");
  for (int i = 0; i < 5000 && read_file(copy) == old_copy; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the approval finished before it was killed";
}

TEST_F(StoreUpdateJournal, AKilledApprovalIsRolledForwardByTheNextReader) {
  const BaselineStore store(dir_);
  const KernelBaselines before{"cpu-test-2t", "copy", {baseline_case("copy/cpu/n=1", 10)}};
  const auto copy = store.kernel_file("cpu-test-2t", "copy");
  const auto triad = store.kernel_file("cpu-test-2t", "triad");
  write_file_atomically(copy, to_yaml(before));
  approve_and_kill_between_files(store, to_yaml(before));

  // Half applied on disk, and the journal that explains it.
  const auto journal = journal_file(store.machine_dir("cpu-test-2t"));
  ASSERT_TRUE(present(journal));
  EXPECT_FALSE(present(triad));
  EXPECT_TRUE(read_log(store.log_file("cpu-test-2t")).empty());
  // A torn append (a kill inside write(2)) is cut before the lines are appended again.
  std::ofstream(store.log_file("cpu-test-2t"), std::ios::app) << "{\"time\": \"2026-";

  const auto found = store.find("cpu-test-2t", "triad", "triad/cpu/n=1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->approval.by, "mallory");
  EXPECT_EQ(store.find("cpu-test-2t", "copy", "copy/cpu/n=1")->approval.by, "mallory");
  EXPECT_FALSE(present(journal));
  const auto log = read_log(store.log_file("cpu-test-2t"));
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].by, "mallory");
  EXPECT_EQ(log[1].case_id, "triad/cpu/n=1");
}

TEST_F(StoreUpdateJournal, TheNextApprovalFinishesTheKilledOneFirst) {
  const BaselineStore store(dir_);
  const KernelBaselines before{"cpu-test-2t", "copy", {baseline_case("copy/cpu/n=1", 10)}};
  write_file_atomically(store.kernel_file("cpu-test-2t", "copy"), to_yaml(before));
  approve_and_kill_between_files(store, to_yaml(before));
  UpdateRequest r = journal_request();
  r.by = "bob";
  approve_candidate(store, candidate_of({"copy/cpu/n=2"}, 40), r);
  const auto log = read_log(store.log_file("cpu-test-2t"));
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[1].case_id, "triad/cpu/n=1");
  EXPECT_EQ(log[2].by, "bob");
  EXPECT_EQ(store.find("cpu-test-2t", "triad", "triad/cpu/n=1")->approval.by, "mallory");
}

TEST_F(StoreUpdateJournal, ACompletedUpdateLeavesNoJournal) {
  const BaselineStore store(dir_);
  approve_candidate(store, candidate_of({"copy/cpu/n=1", "triad/cpu/n=1"}, 30), journal_request());
  EXPECT_FALSE(present(journal_file(store.machine_dir("cpu-test-2t"))));
  EXPECT_EQ(read_log(store.log_file("cpu-test-2t")).size(), 2u);
}

TEST_F(StoreUpdateJournal, ADamagedJournalIsAnErrorNamingIt) {
  const BaselineStore store(dir_);
  approve_candidate(store, candidate_of({"copy/cpu/n=1"}, 30), journal_request());
  const auto journal = journal_file(store.machine_dir("cpu-test-2t"));
  write_file_atomically(journal, "{\"schema\": 1, \"files\": [");
  try {
    store.find("cpu-test-2t", "copy", "copy/cpu/n=1");
    FAIL() << "a damaged journal was ignored";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(journal.string()), std::string::npos) << e.what();
  }
  // A journal naming a file outside its folder is refused, never written.
  write_file_atomically(journal, R"({"schema": 1, "log": "APPROVALS.log", "log_size_bytes": 0, "log_text": "",
    "files": [{"name": "../escape.yaml", "sha256": "", "content": null}]})");
  EXPECT_THROW(store.find("cpu-test-2t", "copy", "copy/cpu/n=1"), Error);
}

}  // namespace
}  // namespace perfgate
