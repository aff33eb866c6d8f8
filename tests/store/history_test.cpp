#include "store/history.h"

#include <gtest/gtest.h>

#include <fstream>

#include "perfgate/error.h"
#include "report/report_fixture.h"

namespace perfgate {
namespace {

class ReportHistory : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() /
        ("perfgate-history-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

RunResult run_at(const std::string& started_at, double copy_ns) {
  RunResult run = test::mixed_run();
  run.started_at = started_at;
  run.run_id = started_at + "-x";
  run.cases[0] = test::measured_case("copy", Params({{"n", 1048576}}), copy_ns, 8388608);
  return run;
}

TEST_F(ReportHistory, AppendsPerCaseMediansAndReadsACase) {
  EXPECT_EQ(append_history(dir_, run_at("2024-05-02T00:00:00Z", 900000)),
            4);  // error and skipped have no metrics
  EXPECT_EQ(append_history(dir_, run_at("2024-05-01T00:00:00Z", 800000)), 4);
  EXPECT_TRUE(std::filesystem::exists(dir_ / "cpu-test-machine-2t.jsonl"));

  const auto points = read_history(dir_, "copy/cpu/n=1048576");
  ASSERT_EQ(points.size(), 2u);
  // Oldest first, whatever order they were appended in.
  EXPECT_EQ(points[0].started_at, "2024-05-01T00:00:00Z");
  EXPECT_DOUBLE_EQ(points[0].medians.at("latency_ns"), 800000);
  EXPECT_DOUBLE_EQ(points[1].medians.at("latency_ns"), 900000);
  EXPECT_EQ(points[1].machine_id, "cpu-test-machine-2t");
  EXPECT_EQ(points[1].commit, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(points[1].verdict, Verdict::pass);
  EXPECT_TRUE(read_history(dir_, "no/such/case").empty());
}

TEST_F(ReportHistory, TheSameRunIsKeptOnce) {
  const RunResult run = run_at("2024-05-01T00:00:00Z", 800000);
  EXPECT_EQ(append_history(dir_, run), 4);
  EXPECT_EQ(append_history(dir_, run), 0);
  EXPECT_EQ(read_history(dir_, "copy/cpu/n=1048576").size(), 1u);
}

TEST_F(ReportHistory, OneFilePerMachine) {
  RunResult other = run_at("2024-05-03T00:00:00Z", 700000);
  other.fingerprint.machine_id = "nvidia-h100-80gb-hbm3";
  append_history(dir_, run_at("2024-05-01T00:00:00Z", 800000));
  append_history(dir_, other);
  EXPECT_TRUE(std::filesystem::exists(dir_ / "nvidia-h100-80gb-hbm3.jsonl"));
  EXPECT_EQ(read_history(dir_, "copy/cpu/n=1048576").size(), 2u);
  const auto h100 = read_history(dir_, "copy/cpu/n=1048576", "nvidia-h100-80gb-hbm3");
  ASSERT_EQ(h100.size(), 1u);
  EXPECT_DOUBLE_EQ(h100[0].medians.at("latency_ns"), 700000);
  const auto by_case = history_by_case(read_all_history(dir_, "cpu-test-machine-2t"));
  EXPECT_EQ(by_case.size(), 4u);
  EXPECT_EQ(by_case.at("triad/cpu/n=65536").size(), 1u);
}

TEST_F(ReportHistory, MissingFolderIsEmptyAndABadLineNamesItsPlace) {
  EXPECT_TRUE(read_all_history(dir_).empty());
  append_history(dir_, run_at("2024-05-01T00:00:00Z", 800000));
  std::ofstream(dir_ / "cpu-test-machine-2t.jsonl", std::ios::app) << "{not json\n";
  try {
    read_history(dir_, "copy/cpu/n=1048576");
    FAIL() << "a malformed line must be an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-test-machine-2t.jsonl:5"), std::string::npos) << e.what();
  }
}

TEST_F(ReportHistory, KeepsWhatJudgingNeeds) {
  RunResult run = run_at("2024-05-01T00:00:00Z", 800000);
  run.perfgate_version = "9.8.7";
  run.fingerprint.driver_version = "550.54";
  run.cases[0].source_hash = "sha256:abc";
  run.cases[0].device_uuid = "GPU-1";
  run.fingerprint.host_id = "5920c5453285";
  run.cases[0].metrics.at("latency_ns").summary.mad = 1000;
  append_history(dir_, run);
  const auto points = read_history(dir_, "copy/cpu/n=1048576");
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].perfgate_version, "9.8.7");
  EXPECT_EQ(points[0].driver, "550.54");
  EXPECT_EQ(points[0].source_hash, "sha256:abc");
  EXPECT_EQ(points[0].device_uuid, "GPU-1");
  EXPECT_EQ(points[0].host_id, "5920c5453285");  // which VM of a class, for the spread between them
  EXPECT_DOUBLE_EQ(points[0].spreads.at("latency_ns"), 1482.6);
}

TEST_F(ReportHistory, ATruncatedLastLineIsRefusedNotAppendedTo) {
  append_history(dir_, run_at("2024-05-01T00:00:00Z", 800000));
  const auto file = dir_ / "cpu-test-machine-2t.jsonl";
  std::ofstream(file, std::ios::app) << "{\"run_id\": \"cut";
  const auto size = std::filesystem::file_size(file);
  try {
    append_history(dir_, run_at("2024-05-02T00:00:00Z", 800000));
    FAIL() << "appending after a cut line must be an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-test-machine-2t.jsonl:5"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::filesystem::file_size(file), size);  // nothing stored was touched
  EXPECT_THROW(read_all_history(dir_), Error);
}

// The series is ordered by started_at: a line whose time is no time, or lies in the future, is
// refused naming its file and line, never sorted first or last.
TEST_F(ReportHistory, AStartTimeThatIsNoTimeIsRefusedWhereItIsRead) {
  append_history(dir_, run_at("2024-05-01T00:00:00Z", 800000));
  const auto file = dir_ / "cpu-test-machine-2t.jsonl";
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  in.close();
  for (const std::string bad : {"\"zzz\"", "\"\"", "\"2099-01-01T00:00:00Z\"", "12"}) {
    std::string edited = line;
    const auto at = edited.find("\"2024-05-01T00:00:00Z\"");
    ASSERT_NE(at, std::string::npos);
    edited.replace(at, std::string("\"2024-05-01T00:00:00Z\"").size(), bad);
    const auto run = edited.find("2024-05-01T00:00:00Z-x");
    ASSERT_NE(run, std::string::npos);
    edited.replace(run, 3, "run");  // another run id: the line is no duplicate
    std::ofstream(dir_ / "edited.jsonl") << line << "\n" << edited << "\n";
    try {
      read_history(dir_, "copy/cpu/n=1048576", "edited");
      ADD_FAILURE() << bad << " must be refused";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("edited.jsonl:2"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("started_at"), std::string::npos) << e.what();
    }
  }
}

TEST_F(ReportHistory, AppendRefusesAStartTimeThatIsNoneOrInTheFuture) {
  for (const char* bad : {"zzz", "", "2099-01-01T00:00:00Z"}) {
    RunResult run = run_at("2024-05-01T00:00:00Z", 800000);
    run.started_at = bad;
    try {
      append_history(dir_, run, "results.json");
      ADD_FAILURE() << "'" << bad << "' must be refused";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("results.json: started_at: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("nothing appended"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "cpu-test-machine-2t.jsonl"));
  // Google Benchmark's offset form is kept in UTC, so the series sorts by the instant.
  RunResult offset = run_at("2024-05-01T00:00:00Z", 800000);
  offset.started_at = "2024-05-01T12:00:00+02:00";
  append_history(dir_, offset);
  EXPECT_EQ(read_history(dir_, "copy/cpu/n=1048576").at(0).started_at, "2024-05-01T10:00:00Z");
}

// One machine id, one file: an id that is no file name is refused, naming the results file.
TEST_F(ReportHistory, AMachineIdThatCannotNameAFileIsRefused) {
  for (const char* bad : {"../../x", "a/b", "a\nb", ".hidden"}) {
    RunResult run = run_at("2024-05-01T00:00:00Z", 800000);
    run.fingerprint.machine_id = bad;
    try {
      append_history(dir_, run, "results.json");
      ADD_FAILURE() << bad << " must be refused";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("results.json: machine_id: machine id"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir_));
  RunResult dashed = run_at("2024-05-01T00:00:00Z", 800000);
  dashed.fingerprint.machine_id = "a-b";
  append_history(dir_, dashed);
  EXPECT_TRUE(std::filesystem::exists(dir_ / "a-b.jsonl"));
}

// Never through a link: a machine's file, or its lock, that is a link is refused and the file it
// points to left as it was.
TEST_F(ReportHistory, NeverAppendsOrLocksThroughALink) {
  std::filesystem::create_directories(dir_);
  const auto outside = dir_ / "outside.txt";
  std::ofstream{outside};  // empty: a history with no lines, which an append through the link would grow
  std::filesystem::create_symlink(outside, dir_ / "cpu-test-machine-2t.jsonl");
  try {
    append_history(dir_, run_at("2024-05-01T00:00:00Z", 800000));
    ADD_FAILURE() << "a history file that is a link must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-test-machine-2t.jsonl is a symbolic link"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(dir_ / "cpu-test-machine-2t.jsonl");
  std::filesystem::create_symlink(dir_ / "made.txt", dir_ / "cpu-test-machine-2t.jsonl.lock");
  try {
    append_history(dir_, run_at("2024-05-01T00:00:00Z", 800000));
    ADD_FAILURE() << "a lock that is a link must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a symbolic link"), std::string::npos) << e.what();
  }
  std::ifstream in(outside);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "made.txt"));
}

}  // namespace
}  // namespace perfgate
