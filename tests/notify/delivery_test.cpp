#include "notify/delivery.h"

#include <gtest/gtest.h>

#include <deque>
#include <vector>

namespace perfgate {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

HttpResponse status(long code, std::optional<seconds> retry_after = std::nullopt, std::string body = "") {
  HttpResponse r;
  r.status = code;
  r.retry_after = retry_after;
  r.body = std::move(body);
  return r;
}

HttpResponse failure(HttpResponse::Failure why) {
  HttpResponse r;
  r.failure = why;
  r.error = "simulated";
  return r;
}

// A receiver that answers from a script and remembers every request.
struct ScriptedReceiver {
  std::deque<HttpResponse> script;
  std::vector<HttpRequest> requests;
  std::vector<milliseconds> sleeps;
  std::vector<std::string> logs;
  std::mt19937_64 random{7};
  std::int64_t now = 1700000000;

  DeliveryHooks hooks() {
    return {[this](const HttpRequest& r) {
              requests.push_back(r);
              HttpResponse next = script.empty() ? status(200) : script.front();
              if (!script.empty()) script.pop_front();
              return next;
            },
            [this](milliseconds wait) { sleeps.push_back(wait), now += 1; }, [this] { return now; },
            [this](const std::string& line) { logs.push_back(line); }, &random};
  }
};

Alert test_alert() { return {"msg_test", "run", 0, R"({"schema":"perfgate.alert.v1"})"}; }

const WebhookUrl kUrl = WebhookUrl::parse("https://hooks.example.com/services/T000/B000/SECRETTOKEN");
const auto kFarDeadline = std::chrono::steady_clock::now() + std::chrono::hours(1);

std::string header(const HttpRequest& r, const std::string& name) {
  for (const auto& [key, value] : r.headers)
    if (key == name) return value;
  return "";
}

TEST(NotifyDelivery, RetriesServerErrorsThenDeliversWithOneId) {
  ScriptedReceiver receiver;
  receiver.script = {status(500), status(503), status(200)};
  Signer signer("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  DeliveryResult result = deliver(test_alert(), kUrl, &signer, {}, receiver.hooks(), kFarDeadline);
  EXPECT_EQ(result.status, DeliveryStatus::delivered);
  EXPECT_EQ(result.attempts, 3);
  ASSERT_EQ(receiver.requests.size(), 3u);
  for (const auto& r : receiver.requests) {
    EXPECT_EQ(header(r, "webhook-id"), "msg_test");
    const auto ts = std::stoll(header(r, "webhook-timestamp"));
    EXPECT_EQ(header(r, "webhook-signature"), signer.sign("msg_test", ts, r.body));
    EXPECT_EQ(header(r, "Content-Type"), "application/json");
  }
  // The timestamp is fresh per attempt; the id never changes.
  EXPECT_NE(header(receiver.requests[0], "webhook-timestamp"),
            header(receiver.requests[2], "webhook-timestamp"));
}

TEST(NotifyDelivery, BackoffGrowsWithJitterWithinBounds) {
  ScriptedReceiver receiver;
  receiver.script = {status(502), status(502), status(502), status(502)};
  DeliveryPolicy policy;
  policy.max_attempts = 4;
  DeliveryResult result = deliver(test_alert(), kUrl, nullptr, policy, receiver.hooks(), kFarDeadline);
  EXPECT_EQ(result.status, DeliveryStatus::failed);
  EXPECT_EQ(result.attempts, 4);
  ASSERT_EQ(receiver.sleeps.size(), 3u);
  for (std::size_t i = 0; i < receiver.sleeps.size(); ++i) {
    const milliseconds full = policy.first_backoff * (1 << i);
    EXPECT_GE(receiver.sleeps[i], full / 2) << i;
    EXPECT_LE(receiver.sleeps[i], full) << i;
  }
}

TEST(NotifyDelivery, HonoursRetryAfterUpToTheCap) {
  ScriptedReceiver receiver;
  receiver.script = {status(429, seconds(3)), status(200)};
  DeliveryResult result = deliver(test_alert(), kUrl, nullptr, {}, receiver.hooks(), kFarDeadline);
  EXPECT_EQ(result.status, DeliveryStatus::delivered);
  ASSERT_EQ(receiver.sleeps.size(), 1u);
  EXPECT_EQ(receiver.sleeps[0], milliseconds(3000));

  ScriptedReceiver patient;
  patient.script = {status(503, seconds(600))};
  result = deliver(test_alert(), kUrl, nullptr, {}, patient.hooks(), kFarDeadline);
  EXPECT_EQ(result.status, DeliveryStatus::failed);  // kept for the next call, no 10-minute wait
  EXPECT_EQ(patient.requests.size(), 1u);
  EXPECT_TRUE(patient.sleeps.empty());
}

TEST(NotifyDelivery, ClientErrorsAreFinalAndReportTheBody) {
  ScriptedReceiver receiver;
  receiver.script = {status(400, std::nullopt, "invalid_payload")};
  DeliveryResult result = deliver(test_alert(), kUrl, nullptr, {}, receiver.hooks(), kFarDeadline);
  EXPECT_EQ(result.status, DeliveryStatus::rejected);
  EXPECT_EQ(result.attempts, 1);
  EXPECT_EQ(result.http_status, 400);
  EXPECT_NE(result.detail.find("invalid_payload"), std::string::npos);

  for (long code : {401L, 403L, 404L, 410L}) {
    ScriptedReceiver r;
    r.script = {status(code)};
    EXPECT_EQ(deliver(test_alert(), kUrl, nullptr, {}, r.hooks(), kFarDeadline).status,
              DeliveryStatus::rejected);
  }
  ScriptedReceiver redirected;
  redirected.script = {failure(HttpResponse::Failure::redirect)};
  EXPECT_EQ(deliver(test_alert(), kUrl, nullptr, {}, redirected.hooks(), kFarDeadline).status,
            DeliveryStatus::rejected);
}

TEST(NotifyDelivery, ConnectionErrorsAndTimeoutsAreRetried) {
  ScriptedReceiver receiver;
  receiver.script = {failure(HttpResponse::Failure::connection), failure(HttpResponse::Failure::timeout),
                     status(408), status(204)};
  DeliveryResult result = deliver(test_alert(), kUrl, nullptr, {}, receiver.hooks(), kFarDeadline);
  EXPECT_EQ(result.status, DeliveryStatus::delivered);
  EXPECT_EQ(result.attempts, 4);

  ScriptedReceiver tls;
  tls.script = {failure(HttpResponse::Failure::tls)};
  EXPECT_EQ(deliver(test_alert(), kUrl, nullptr, {}, tls.hooks(), kFarDeadline).status,
            DeliveryStatus::failed);
  EXPECT_EQ(tls.requests.size(), 1u);
}

TEST(NotifyDelivery, StopsAtTheDeadline) {
  ScriptedReceiver receiver;
  receiver.script = {status(500), status(500)};
  DeliveryResult result =
      deliver(test_alert(), kUrl, nullptr, {}, receiver.hooks(), std::chrono::steady_clock::now());
  EXPECT_EQ(result.status, DeliveryStatus::failed);
  EXPECT_EQ(receiver.requests.size(), 1u);
}

TEST(NotifyDelivery, UnsignedWithoutASecret) {
  ScriptedReceiver receiver;
  deliver(test_alert(), kUrl, nullptr, {}, receiver.hooks(), kFarDeadline);
  ASSERT_EQ(receiver.requests.size(), 1u);
  EXPECT_EQ(header(receiver.requests[0], "webhook-signature"), "");
  EXPECT_EQ(header(receiver.requests[0], "webhook-id"), "msg_test");
}

TEST(NotifyDelivery, LogsShowTheHostNeverThePath) {
  ScriptedReceiver receiver;
  receiver.script = {status(500), status(200)};
  deliver(test_alert(), kUrl, nullptr, {}, receiver.hooks(), kFarDeadline);
  ASSERT_FALSE(receiver.logs.empty());
  for (const auto& line : receiver.logs) {
    EXPECT_NE(line.find("hooks.example.com"), std::string::npos) << line;
    EXPECT_EQ(line.find("SECRETTOKEN"), std::string::npos) << line;
    EXPECT_EQ(line.find("/services"), std::string::npos) << line;
  }
}

TEST(NotifyDelivery, RetryAfterParsesSecondsAndHttpDates) {
  EXPECT_EQ(parse_retry_after("120", 0), seconds(120));
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1445412470), seconds(10));
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1445412490), seconds(0));
  EXPECT_EQ(parse_retry_after("soon", 0), std::nullopt);
}

}  // namespace
}  // namespace perfgate
