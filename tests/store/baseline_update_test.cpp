#include "store/baseline_update.h"

#include <gtest/gtest.h>

#include "core/atomic_file.h"
#include "perfgate/error.h"
#include "store/approval_log.h"
#include "store/baseline_file.h"
#include "store_fixture.h"

namespace perfgate {
namespace {

using StoreBaselineUpdate = testing::StoreTest;
using testing::baseline_case;
using testing::candidate_of;

UpdateRequest request(const std::string& by = "carol") {
  UpdateRequest r;
  r.by = by;
  r.reason = "new loop order";
  r.at = "2026-11-21T12:00:00Z";
  r.commit = "0a1b2c";
  r.lock_timeout = std::chrono::milliseconds(2000);
  return r;
}

TEST_F(StoreBaselineUpdate, ApproveMergesIntoTheKernelFileAndLogs) {
  const BaselineStore store(dir_);
  const KernelBaselines before{
      "cpu-test-2t", "copy", {baseline_case("copy/cpu/n=1", 10), baseline_case("copy/cpu/n=2", 20)}};
  write_file_atomically(store.kernel_file("cpu-test-2t", "copy"), to_yaml(before));

  const UpdateOutcome outcome = approve_candidate(
      store, candidate_of({"copy/cpu/n=2", "copy/cpu/n=3", "triad/cpu/n=1"}, 30), request());
  EXPECT_EQ(outcome.case_ids.size(), 3u);
  EXPECT_EQ(outcome.files.size(), 2u);  // copy.yaml and triad.yaml

  const auto copy = store.load("cpu-test-2t", "copy");
  ASSERT_TRUE(copy);
  ASSERT_EQ(copy->cases.size(), 3u);
  EXPECT_EQ(copy->cases[0].approval.by, "alice");  // untouched
  EXPECT_EQ(copy->cases[0].runs, before.cases[0].runs);
  EXPECT_EQ(copy->cases[1].approval.by, "carol");
  EXPECT_EQ(copy->cases[1].approval.reason, "new loop order");
  EXPECT_EQ(copy->cases[1].approval.commit, "0a1b2c");
  EXPECT_EQ(copy->cases[1].commit, "fedcba9876");
  EXPECT_EQ(copy->cases[1].runs.at("latency_ns").size(), 2u);
  EXPECT_TRUE(store.find("cpu-test-2t", "triad", "triad/cpu/n=1"));

  const auto log = read_log(store.log_file("cpu-test-2t"));
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].action, "approve");
  EXPECT_EQ(log[0].by, "carol");
  EXPECT_EQ(log[0].reason, "new loop order");
  EXPECT_TRUE(log[0].candidate_digest.starts_with("sha256:"));
}

TEST_F(StoreBaselineUpdate, RefusalsChangeNothing) {
  const BaselineStore store(dir_);
  const Candidate good = candidate_of({"copy/cpu/n=2"}, 30);
  EXPECT_THROW(approve_candidate(store, good, request("")), Error);
  EXPECT_THROW(approve_candidate(store, good, request("   ")), Error);
  Candidate tampered = good;
  tampered.cases[0].runs["latency_ns"][0][0] /= 2;
  EXPECT_THROW(approve_candidate(store, tampered, request()), Error);
  EXPECT_TRUE(store.machines().empty() || store.all().empty());
  EXPECT_FALSE(std::filesystem::exists(store.log_file("cpu-test-2t")));
}

TEST_F(StoreBaselineUpdate, ABrokenFileStopsTheApprovalBeforeAnyWrite) {
  const BaselineStore store(dir_);
  write_file_atomically(store.kernel_file("cpu-test-2t", "triad"), "schema: 1\nmachine_id: [\n");
  EXPECT_THROW(approve_candidate(store, candidate_of({"copy/cpu/n=2", "triad/cpu/n=1"}, 30), request()),
               Error);
  EXPECT_FALSE(std::filesystem::exists(store.kernel_file("cpu-test-2t", "copy")));
  EXPECT_FALSE(std::filesystem::exists(store.log_file("cpu-test-2t")));
}

TEST_F(StoreBaselineUpdate, DropRemovesMatchingCasesAndLogs) {
  const BaselineStore store(dir_);
  approve_candidate(store, candidate_of({"copy/cpu/n=1", "copy/cpu/n=2", "triad/cpu/n=1"}, 30), request());
  const UpdateOutcome dropped = drop_cases(store, "", "triad", request("dave"));
  EXPECT_EQ(dropped.case_ids, std::vector<std::string>{"triad/cpu/n=1"});
  EXPECT_FALSE(std::filesystem::exists(store.kernel_file("cpu-test-2t", "triad")));
  drop_cases(store, "cpu-test-2t", "copy/cpu/n=1", request("dave"));
  ASSERT_EQ(store.all().size(), 1u);
  EXPECT_EQ(store.all()[0].id, "copy/cpu/n=2");
  const auto log = read_log(store.log_file("cpu-test-2t"));
  ASSERT_EQ(log.size(), 5u);
  EXPECT_EQ(log[3].action, "drop");
  EXPECT_EQ(log[3].by, "dave");
  EXPECT_THROW(drop_cases(store, "", "nothing/*", request()), Error);
}

// baselines/<machine> that is a link: an approval would land wherever it points. Refused, with
// nothing written there.
TEST_F(StoreBaselineUpdate, AMachineFolderThatIsALinkIsRefused) {
  const auto outside = dir_.parent_path() / (dir_.filename().string() + "-outside");
  std::filesystem::remove_all(outside);
  std::filesystem::create_directories(outside);
  std::filesystem::create_directories(dir_);
  std::filesystem::create_directory_symlink(outside, dir_ / "cpu-test-2t");
  const BaselineStore store(dir_);
  try {
    approve_candidate(store, candidate_of({"copy/cpu/n=2"}, 30), request());
    ADD_FAILURE() << "a linked machine folder must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-test-2t is a symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::is_empty(outside));
  std::filesystem::remove_all(outside);
}

// A machine id names a folder as it is: one with a newline (or a '/') is refused, no folder made.
TEST_F(StoreBaselineUpdate, AMachineIdThatCannotNameAFolderIsRefused) {
  const BaselineStore store(dir_);
  for (const std::string machine : {"a\nb", "a/b", "..", ".lock"}) {
    try {
      approve_candidate(store, candidate_of({"copy/cpu/n=2"}, 30, machine), request());
      ADD_FAILURE() << machine << " must be refused";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("not a baselines folder name: machine id"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(!std::filesystem::exists(dir_) || std::filesystem::is_empty(dir_));
}

}  // namespace
}  // namespace perfgate
