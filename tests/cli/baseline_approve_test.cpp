// `baseline approve` of a candidate dated in the future: refused whatever --max-age says (a
// future created_at would pass any age limit), naming the file; nothing approved.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/command_run.h"
#include "core/atomic_file.h"
#include "core/scratch_dir.h"
#include "store/candidate.h"
#include "store/store_fixture.h"

namespace perfgate {
namespace {

testing::CommandRun approve_in(const std::filesystem::path& dir, const std::string& created_at,
                               const std::string& max_age) {
  Candidate candidate = testing::candidate_of({"copy/cpu/n=2"}, 30);
  candidate.created_at = created_at;
  candidate.digest = content_digest(candidate);
  const std::string file = (dir / "candidate.yaml").string();
  write_file_atomically(file, to_yaml(candidate));
  return testing::run_perfgate({"baseline", "approve", file, "--by", "ann", "--reason", "r", "--machine-id",
                                "cpu-test-2t", "--baselines", (dir / "baselines").string(), "--yes",
                                "--max-age", max_age});
}

TEST(BaselineApprove, RefusesACandidateDatedInTheFuture) {
  ScratchDir dir("perfgate-approve-future");
  for (const std::string max_age : {"14", "0"}) {
    const testing::CommandRun run = approve_in(dir.path(), "2099-01-01T00:00:00Z", max_age);
    EXPECT_EQ(run.exit_code, 2) << run.errors;
    EXPECT_NE(run.errors.find("candidate.yaml: created_at: 2099-01-01T00:00:00Z is in the future"),
              std::string::npos)
        << run.errors;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "baselines" / "cpu-test-2t"));
  }
  const testing::CommandRun garbled = approve_in(dir.path(), "zzz", "0");
  EXPECT_EQ(garbled.exit_code, 2);
  EXPECT_NE(garbled.errors.find("created_at: \"zzz\" is not an ISO 8601 UTC time"), std::string::npos)
      << garbled.errors;
}

}  // namespace
}  // namespace perfgate
