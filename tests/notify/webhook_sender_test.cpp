#include "notify/webhook_sender.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "perfgate/error.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

class NotifySender : public ::testing::Test {
 protected:
  void SetUp() override {
    config_.url = WebhookUrl::parse("https://receiver.example.com/hooks/TOKEN");
    config_.secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    config_.attempts = 2;
    config_.outbox =
        fs::temp_directory_path() / ("perfgate-sender-test-" + std::to_string(std::random_device{}()));
  }
  void TearDown() override { fs::remove_all(config_.outbox); }

  SendReport send(const std::optional<Alert>& alert, bool receiver_up) {
    DeliveryHooks hooks;
    hooks.send = [this, receiver_up](const HttpRequest& request) {
      for (const auto& [name, value] : request.headers)
        if (name == "webhook-id") sent_ids_.push_back(value);
      HttpResponse response;
      if (receiver_up)
        response.status = 200;
      else
        response.failure = HttpResponse::Failure::connection;
      return response;
    };
    hooks.sleep = [](std::chrono::milliseconds) {};
    hooks.now_unix = [] { return std::int64_t{1700000000}; };
    hooks.log = [this](const std::string& line) { logs_.push_back(line); };
    return WebhookSender(config_, {}, hooks).send(alert);
  }
  static Alert alert(const std::string& run, std::int64_t created_ms) {
    return {alert_id(run), run, created_ms, "{}"};
  }

  WebhookConfig config_;
  std::vector<std::string> sent_ids_;
  std::vector<std::string> logs_;
};

TEST_F(NotifySender, OutageQueuesAndRecoveryDeliversOldestFirst) {
  SendReport down = send(alert("one", 1700000000000), false);
  EXPECT_EQ(down.queued, 1);
  EXPECT_EQ(down.delivered, 0);
  EXPECT_EQ(sent_ids_.size(), 2u);  // both attempts
  EXPECT_TRUE(fs::exists(config_.outbox / (alert_id("one") + ".json")));

  sent_ids_.clear();
  SendReport still_down = send(alert("two", 1700000001000), false);
  EXPECT_EQ(still_down.queued, 2);
  // The first failure stops the call: the second alert waits without attempts of its own.
  EXPECT_EQ(sent_ids_, (std::vector<std::string>{alert_id("one"), alert_id("one")}));

  sent_ids_.clear();
  SendReport up = send(std::nullopt, true);
  EXPECT_EQ(up.delivered, 2);
  EXPECT_EQ(up.queued, 0);
  EXPECT_EQ(sent_ids_, (std::vector<std::string>{alert_id("one"), alert_id("two")}));
  EXPECT_FALSE(fs::exists(config_.outbox / (alert_id("one") + ".json")));
  for (const auto& line : logs_) EXPECT_EQ(line.find("TOKEN"), std::string::npos) << line;
}

TEST_F(NotifySender, AMalformedSecretFailsBeforeAnythingIsQueued) {
  config_.secret = "whsec_%%%";
  EXPECT_THROW(send(alert("one", 1), true), Error);
  EXPECT_TRUE(sent_ids_.empty());
}

}  // namespace
}  // namespace perfgate
