#include "notify/outbox.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

class NotifyOutbox : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("perfgate-outbox-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + std::to_string(std::random_device{}()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outbox open() {
    return Outbox(dir_, [this](const std::string& line) { warnings_.push_back(line); });
  }
  static Alert alert(const std::string& run, std::int64_t created_s) {
    return {alert_id(run), run, created_s * 1000, "{\"run\":\"" + run + "\"}"};
  }

  fs::path dir_;
  std::vector<std::string> warnings_;
};

TEST_F(NotifyOutbox, KeepsOneFilePerAlertNamedByIdOldestFirst) {
  Outbox outbox = open();
  outbox.put(alert("b", 200));
  outbox.put(alert("a", 100));
  outbox.put(alert("c", 300));
  outbox.put(alert("a", 100));  // the same alert again: still one file
  EXPECT_TRUE(fs::exists(dir_ / (alert_id("a") + ".json")));
  const auto pending = outbox.pending();
  ASSERT_EQ(pending.size(), 3u);
  EXPECT_EQ(pending[0].run_id, "a");
  EXPECT_EQ(pending[1].run_id, "b");
  EXPECT_EQ(pending[2].run_id, "c");
  EXPECT_EQ(pending[0].body, alert("a", 100).body);  // byte for byte

  outbox.remove(alert_id("b"));
  EXPECT_EQ(outbox.pending().size(), 2u);
}

TEST_F(NotifyOutbox, RejectedAlertsMoveAsideAndAreNotPending) {
  Outbox outbox = open();
  outbox.put(alert("a", 100));
  const fs::path kept = outbox.reject(alert("a", 100));
  EXPECT_TRUE(fs::exists(kept));
  EXPECT_EQ(kept.parent_path().filename(), "rejected");
  EXPECT_TRUE(outbox.pending().empty());
}

TEST_F(NotifyOutbox, PruneDropsOldestBeyondTheCount) {
  Outbox outbox = open();
  for (int i = 0; i < 7; ++i) outbox.put(alert("run" + std::to_string(i), 1000 + i));
  OutboxLimits limits;
  limits.max_alerts = 5;
  const auto dropped = outbox.prune(limits, 1010);
  ASSERT_EQ(dropped.size(), 2u);
  EXPECT_EQ(dropped[0].id, alert_id("run0"));
  EXPECT_EQ(dropped[1].id, alert_id("run1"));
  EXPECT_NE(dropped[0].why.find("over 5 alerts"), std::string::npos);
  const auto pending = outbox.pending();
  ASSERT_EQ(pending.size(), 5u);
  EXPECT_EQ(pending.front().run_id, "run2");
}

TEST_F(NotifyOutbox, PruneDropsAlertsOlderThanTheMaxAge) {
  Outbox outbox = open();
  const std::int64_t now = 2'000'000;
  outbox.put(alert("old", now - 15 * 86400));
  outbox.put(alert("fresh", now - 60));
  outbox.reject(alert("old-rejected", now - 30 * 86400));
  const auto dropped = outbox.prune(OutboxLimits{}, now);
  ASSERT_EQ(dropped.size(), 2u);
  EXPECT_EQ(dropped[0].id, alert_id("old"));
  EXPECT_EQ(dropped[0].age_s, 15 * 86400);
  EXPECT_NE(dropped[0].why.find("older than 14 days"), std::string::npos) << dropped[0].why;
  EXPECT_EQ(dropped[1].id, "rejected/" + alert_id("old-rejected"));
  ASSERT_EQ(outbox.pending().size(), 1u);
  EXPECT_EQ(outbox.pending()[0].run_id, "fresh");
}

TEST_F(NotifyOutbox, UnreadableFilesAreReportedAndSkipped) {
  Outbox outbox = open();
  outbox.put(alert("good", 1));
  std::ofstream(dir_ / "msg_broken.json") << "{ not json";
  std::ofstream(dir_ / "notes.txt") << "not an alert";
  EXPECT_EQ(outbox.pending().size(), 1u);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("msg_broken.json"), std::string::npos);
}

TEST_F(NotifyOutbox, LockIsReentrantPerOutbox) {
  Outbox outbox = open();
  outbox.lock();
  outbox.lock();
  outbox.put(alert("a", 1));
  EXPECT_EQ(outbox.pending().size(), 1u);
}

}  // namespace
}  // namespace perfgate
