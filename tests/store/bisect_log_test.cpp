// A bisect's log: steps appended are replayed by the same bisect (same case and range), a log of
// another bisect starts afresh, and a cut or foreign line is an error naming the file and line.
// The history's BISECTED.log keeps the newest record per change point.
#include "store/bisect_log.h"

#include <gtest/gtest.h>

#include <fstream>

#include "perfgate/error.h"
#include "store/history_log.h"
#include "store/store_fixture.h"

namespace perfgate {
namespace {

using BisectLogTest = testing::StoreTest;

BisectStep logged_step(const std::string& head, StepOutcome outcome, double ratio) {
  BisectStep s;
  s.head = head;
  s.base = "good";
  s.outcome = outcome;
  s.ratio = ratio;
  s.low = ratio - 0.01;
  s.high = ratio + 0.01;
  s.rounds = 20;
  s.message = "A/B: ...";
  s.build_s = 3.5;
  s.measure_s = 4.25;
  return s;
}

TEST_F(BisectLogTest, TheSameBisectReplaysItsSteps) {
  const auto file = dir_ / "work" / "bisect.log";
  const BisectKey key{"copy/cpu/n=1048576", "good", "bad"};
  {
    BisectLog log(file, key);
    EXPECT_TRUE(log.replayed().empty());
    BisectStep paired = logged_step("bad", StepOutcome::slower, 1.3);
    paired.pairs["copy/cpu/n=1048576"] = {1.29, 1.31, 1.3};
    log.append(paired);
    log.append(logged_step("mid", StepOutcome::skipped, 0));
  }
  BisectLog again(file, key);
  ASSERT_EQ(again.replayed().size(), 2u);
  const BisectStep& s = again.replayed()[0];
  EXPECT_EQ(s.head, "bad");
  EXPECT_EQ(s.outcome, StepOutcome::slower);
  EXPECT_DOUBLE_EQ(s.ratio, 1.3);
  EXPECT_DOUBLE_EQ(s.low, 1.29);
  EXPECT_EQ(s.rounds, 20);
  EXPECT_DOUBLE_EQ(s.measure_s, 4.25);
  EXPECT_EQ(s.pairs.at("copy/cpu/n=1048576"), (std::vector<double>{1.29, 1.31, 1.3}));
  EXPECT_EQ(again.replayed()[1].outcome, StepOutcome::skipped);
  EXPECT_TRUE(again.replayed()[1].pairs.empty());
}

TEST(BisectPairs, AStepMeasuredThreeTimesPoolsEachPairOnce) {
  const std::string id = "copy/vulkan/n=33554432,wg=256";
  std::vector<BisectStep> steps;
  EXPECT_TRUE(pairs_so_far(steps, "c11", "good", id).empty());
  BisectStep first = logged_step("c11", StepOutcome::inconclusive, 1.003);
  first.pairs[id] = {1.002, 1.004};
  steps.push_back(first);
  BisectStep other = logged_step("c8", StepOutcome::not_slower, 1.0);  // another step between
  other.pairs[id] = {0.999, 1.001};
  steps.push_back(other);
  EXPECT_EQ(pairs_so_far(steps, "c11", "good", id), (std::vector<double>{1.002, 1.004}));
  BisectStep second = logged_step("c11", StepOutcome::inconclusive, 1.003);
  second.pairs[id] = {1.002, 1.004, 1.003, 1.001};  // the first's and its own
  steps.push_back(second);
  EXPECT_EQ(pairs_so_far(steps, "c11", "good", id), (std::vector<double>{1.002, 1.004, 1.003, 1.001}));
  EXPECT_TRUE(pairs_so_far(steps, "c11", "c8", id).empty()) << "another base";
  EXPECT_TRUE(pairs_so_far(steps, "c11", "good", "copy/cpu/n=1048576").empty()) << "another case";
}

TEST_F(BisectLogTest, AnotherBisectStartsAfresh) {
  const auto file = dir_ / "bisect.log";
  BisectLog(file, {"copy/cpu/n=1048576", "good", "bad"}).append(logged_step("bad", StepOutcome::slower, 1.3));
  EXPECT_TRUE(BisectLog(file, {"copy/cpu/n=1048576", "good", "other"}).replayed().empty());
  EXPECT_TRUE(BisectLog(file, {"copy/cpu/n=1048576", "good", "bad"}).replayed().empty());
}

TEST_F(BisectLogTest, OtherJudgingStartsAfresh) {
  // A step's verdict is its allowance's and its pairs': a bisect run again with another
  // --allowed or --pairs measures its steps again rather than replaying verdicts of the first.
  const auto file = dir_ / "bisect.log";
  const BisectKey five{"copy/vulkan/n=33554432,wg=256", "good", "bad", "allowed 5%, 1 pair"};
  BisectLog(file, five).append(logged_step("bad", StepOutcome::not_slower, 1.004));
  BisectKey fine = five;
  fine.judging = "allowed 0.2%, 10 pairs";
  EXPECT_TRUE(BisectLog(file, fine).replayed().empty());
  BisectLog(file, fine).append(logged_step("bad", StepOutcome::slower, 1.004));
  ASSERT_EQ(BisectLog(file, fine).replayed().size(), 1u);
  EXPECT_EQ(BisectLog(file, fine).replayed()[0].outcome, StepOutcome::slower);
  // A log written before the key named its judging is not replayed under any.
  std::ofstream(file, std::ios::trunc) << R"({"bisect":{"case":"copy/vulkan/n=33554432,wg=256","good":"good","bad":"bad"}})"
                                       << "\n";
  EXPECT_TRUE(BisectLog(file, five).replayed().empty());
}

TEST_F(BisectLogTest, AnUnknownOutcomeIsAnErrorNamingTheLine) {
  const auto file = dir_ / "bisect.log";
  BisectLog(file, {"c", "good", "bad"});
  std::ofstream(file, std::ios::app) << R"({"head":"x","base":"good","outcome":"faster"})"
                                     << "\n";
  try {
    BisectLog log(file, {"c", "good", "bad"});
    FAIL() << "a foreign outcome was replayed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bisect.log"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("faster"), std::string::npos) << e.what();
  }
}

TEST_F(BisectLogTest, TheHistoryKeepsTheNewestBisectOfAChangePoint) {
  append_bisected(dir_, {"cp-1", {{"aaa", "first try", 12.0, 10.0, 14.0, false}}, 7, "2026-11-28T00:00:00Z"});
  append_bisected(dir_, {"cp-1", {{"bbb", "the culprit", 11.0, 9.5, 12.5, true}}, 6, "2026-11-29T00:00:00Z"});
  append_bisected(dir_, {"cp-2", {{"ccc", "one", 5, 4, 6, true}, {"ddd", "two", 6, 5, 7, true}}, 9, ""});
  const auto records = read_bisected(dir_);
  ASSERT_EQ(records.size(), 2u);
  const Bisected& one = records.at("cp-1");
  ASSERT_EQ(one.commits.size(), 1u);
  EXPECT_EQ(one.commits[0].sha, "bbb");
  EXPECT_TRUE(one.commits[0].exact);
  EXPECT_DOUBLE_EQ(one.commits[0].low_pct, 9.5);
  EXPECT_EQ(one.builds, 6);
  EXPECT_EQ(records.at("cp-2").commits.size(), 2u);
  EXPECT_THROW(append_bisected(dir_, {"cp-3", {}, 1, ""}), Error);
}

// The history's logs are read whole before an append: a malformed line anywhere (not only a
// cut last one) refuses it, naming the line, and nothing is appended after it.
TEST_F(BisectLogTest, TheHistorysLogsRefuseAnAppendAfterAMalformedLine) {
  append_acknowledgement(dir_, {"cp-1", "ann", "wanted", "2026-11-28T00:00:00Z"});
  std::ofstream(acknowledgements_file(dir_), std::ios::app) << "{not json\n";
  const auto size = std::filesystem::file_size(acknowledgements_file(dir_));
  try {
    append_acknowledgement(dir_, {"cp-3", "ann", "wanted", "2026-11-28T00:00:00Z"});
    FAIL() << "an append after a malformed line must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ACKNOWLEDGED.log:2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::filesystem::file_size(acknowledgements_file(dir_)), size);
}

}  // namespace
}  // namespace perfgate
