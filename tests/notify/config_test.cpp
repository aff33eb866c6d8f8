#include "notify/config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "notify/notify_fixture.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;
using notify_testing::env_of;

WebhookConfig load(std::map<std::string, std::string> values, std::vector<std::string>* warnings = nullptr) {
  return load_webhook_config(env_of(std::move(values)), [warnings](const std::string& line) {
    if (warnings) warnings->push_back(line);
  });
}

std::string error_of(std::map<std::string, std::string> values) {
  try {
    load(std::move(values));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(NotifyConfig, ReadsTheEnvironment) {
  WebhookConfig config = load({{"PERFGATE_WEBHOOK_URL", "https://hooks.slack.com/services/T0/B0/XYZ"},
                               {"PERFGATE_WEBHOOK_SECRET", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
                               {"PERFGATE_WEBHOOK_FORMAT", "slack"},
                               {"PERFGATE_WEBHOOK_SEND", "always"},
                               {"PERFGATE_WEBHOOK_TIMEOUT_S", "2.5"},
                               {"PERFGATE_WEBHOOK_ATTEMPTS", "2"},
                               {"PERFGATE_OUTBOX", "/tmp/ob"}});
  ASSERT_TRUE(config.url);
  EXPECT_EQ(config.url->host(), "hooks.slack.com");
  EXPECT_EQ(config.url->origin(), "https://hooks.slack.com");
  EXPECT_EQ(config.format, PayloadFormat::slack);
  EXPECT_EQ(config.send, SendPolicy::always);
  EXPECT_DOUBLE_EQ(config.timeout_s, 2.5);
  EXPECT_EQ(config.attempts, 2);
  EXPECT_EQ(config.outbox, "/tmp/ob");
}

TEST(NotifyConfig, DefaultsWithoutAWebhook) {
  WebhookConfig config = load({{"HOME", "/home/ci"}});
  EXPECT_FALSE(config.url);
  EXPECT_EQ(config.format, PayloadFormat::generic);
  EXPECT_EQ(config.send, SendPolicy::regressions);
  EXPECT_EQ(config.outbox, "/home/ci/.cache/perfgate/outbox");
  EXPECT_EQ(load({{"HOME", "/home/ci"}, {"XDG_CACHE_HOME", "/cache"}}).outbox, "/cache/perfgate/outbox");
}

TEST(NotifyConfig, MalformedUrlsAreRedactedToSchemeAndHost) {
  for (const char* url : {"https://hooks.example.com:99999/T0KEN?q=T0KEN", "ftp://hooks.example.com/T0KEN",
                          "hooks.example.com/T0KEN", "https://hooks.example.com/T0KEN has spaces"}) {
    const std::string message = error_of({{"PERFGATE_WEBHOOK_URL", url}});
    EXPECT_FALSE(message.empty()) << url;
    EXPECT_EQ(message.find("T0KEN"), std::string::npos) << message;
    EXPECT_NE(message.find("PERFGATE_WEBHOOK_URL"), std::string::npos) << message;
  }
  EXPECT_NE(error_of({{"PERFGATE_WEBHOOK_URL", "https://hooks.example.com:99999/T0KEN"}})
                .find("https://hooks.example.com"),
            std::string::npos);
  EXPECT_EQ(redact_url("https://user:pw@hooks.example.com:8443/a/b?c=d"), "https://hooks.example.com");
  EXPECT_EQ(redact_url("garbage"), "<malformed>");
}

TEST(NotifyConfig, UnknownValuesAreErrors) {
  EXPECT_NE(error_of({{"PERFGATE_WEBHOOK_FORMAT", "teams"}}).find("PERFGATE_WEBHOOK_FORMAT"),
            std::string::npos);
  EXPECT_NE(error_of({{"PERFGATE_WEBHOOK_SEND", "sometimes"}}).find("PERFGATE_WEBHOOK_SEND"),
            std::string::npos);
  EXPECT_FALSE(error_of({{"PERFGATE_WEBHOOK_TIMEOUT_S", "-1"}}).empty());
  EXPECT_FALSE(error_of({{"PERFGATE_WEBHOOK_ATTEMPTS", "100"}}).empty());
  EXPECT_FALSE(error_of({{"PERFGATE_WEBHOOK_CA_BUNDLE", "/no/such/bundle.pem"}}).empty());
}

TEST(NotifyConfig, ScrubRemovesPathAndQueryTokens) {
  const WebhookUrl url =
      WebhookUrl::parse("https://hooks.example.com/services/T0/B0/SECRETTOKEN?sig=QUERYSECRET");
  const std::string scrubbed =
      url.scrub("posting to " + url.full() + " failed; token SECRETTOKEN, sig QUERYSECRET");
  EXPECT_EQ(scrubbed.find("SECRETTOKEN"), std::string::npos) << scrubbed;
  EXPECT_EQ(scrubbed.find("QUERYSECRET"), std::string::npos) << scrubbed;
  EXPECT_NE(scrubbed.find("failed"), std::string::npos);
}

TEST(NotifyConfig, ASecretWithoutItsPrefixIsAWarningAndTheBudgetIsRead) {
  std::vector<std::string> warnings;
  const WebhookConfig config = load({{"PERFGATE_WEBHOOK_URL", "https://hooks.example.com/x"},
                                     {"PERFGATE_WEBHOOK_SECRET", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
                                     {"PERFGATE_WEBHOOK_BUDGET_S", "7.5"}},
                                    &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("PERFGATE_WEBHOOK_SECRET: the signing secret does not start with whsec_"),
            std::string::npos);
  EXPECT_EQ(warnings[0].find("MfKQ9r8G"), std::string::npos) << "the warning shows the secret";
  EXPECT_DOUBLE_EQ(config.budget_s, 7.5);
  EXPECT_DOUBLE_EQ(load({}).budget_s, 30);
  EXPECT_FALSE(error_of({{"PERFGATE_WEBHOOK_BUDGET_S", "0"}}).empty());
}

TEST(NotifyConfig, ScrubRemovesDecodedTokensToo) {
  const WebhookUrl url = WebhookUrl::parse("http://host/hooks/T0KEN%3123?key=SECRE%54Q+X");
  for (const std::string echoed :
       {"HTTP 400: refused /hooks/T0KEN123?key=SECRETQ X", "refused T0KEN123 and SECRETQ+X",
        "refused /hooks/T0KEN%3123?key=SECRE%54Q+X", "refused T0KEN%3123 / SECRE%54Q+X"}) {
    const std::string scrubbed = url.scrub(echoed);
    for (const char* secret : {"T0KEN123", "T0KEN%31", "SECRETQ", "SECRE%54"})
      EXPECT_EQ(scrubbed.find(secret), std::string::npos) << scrubbed;
    EXPECT_NE(scrubbed.find("refused"), std::string::npos) << scrubbed;
  }
}

// Short tokens, either case of a percent-encoding, JSON's "\/" and a re-encoded path.
TEST(NotifyConfig, ScrubRemovesShortAndEscapedTokens) {
  const WebhookUrl url = WebhookUrl::parse("http://host/hooks/T%30KEN/x7?sig=ABCD%2FEFGH1234&k=Z");
  for (const std::string echoed :
       {"no such hook: T0KEN", "refused \\/hooks\\/T0KEN\\/x7?sig=ABCD\\/EFGH1234&k=Z",
        "refused sig=ABCD%2fEFGH1234", "refused %2Fhooks%2FT0KEN%2Fx7%3Fsig%3DABCD%2FEFGH1234%26k%3DZ",
        "refused %54%30%4b%45%4e", "bad k: Z", "refused &#x2F;hooks&#x2F;t0ken"}) {
    const std::string scrubbed = url.scrub(echoed);
    for (const char* secret : {"T0KEN", "t0ken", "x7", "ABCD", "EFGH1234", "%54%30", ": Z"})
      EXPECT_EQ(scrubbed.find(secret), std::string::npos) << scrubbed;
    EXPECT_TRUE(scrubbed.find("refused") != std::string::npos ||
                scrubbed.find("no such hook") != std::string::npos ||
                scrubbed.find("bad k") != std::string::npos)
        << scrubbed;
  }
  // A short token only where it stands alone: the words around it stay.
  EXPECT_EQ(url.scrub("Zero zones: Z"), "Zero zones: <redacted>");
}

class NotifyConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("perfgate-config-test-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& text) {
    fs::path file = dir_ / "webhook.yaml";
    std::ofstream(file) << text;
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    return file;
  }
  fs::path dir_;
};

TEST_F(NotifyConfigFile, ReadsTheFileAndTheEnvironmentWins) {
  const fs::path file = write(
      "url: https://receiver.example.com/hook/ABC\nsecret: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n"
      "format: slack\nsend: deltas\n");
  std::vector<std::string> warnings;
  WebhookConfig config = load({{"PERFGATE_WEBHOOK_CONFIG", file.string()}}, &warnings);
  ASSERT_TRUE(config.url);
  EXPECT_EQ(config.url->host(), "receiver.example.com");
  EXPECT_EQ(config.secret, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  EXPECT_EQ(config.format, PayloadFormat::slack);
  EXPECT_EQ(config.send, SendPolicy::deltas);
  EXPECT_TRUE(warnings.empty());
  config = load({{"PERFGATE_WEBHOOK_CONFIG", file.string()}, {"PERFGATE_WEBHOOK_FORMAT", "generic"}});
  EXPECT_EQ(config.format, PayloadFormat::generic);
}

TEST_F(NotifyConfigFile, UnknownKeysNameFileAndLine) {
  const fs::path file = write("url: https://receiver.example.com/hook\nretries: 3\n");
  const std::string message = error_of({{"PERFGATE_WEBHOOK_CONFIG", file.string()}});
  EXPECT_NE(message.find(file.string() + ":2: retries"), std::string::npos) << message;
}

// The secret or the URL pasted where a key belongs: the error names the line, never the text.
TEST_F(NotifyConfigFile, ASecretWhereAKeyBelongsIsNotShown) {
  for (const std::string pasted :
       {"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw: 1\n", "https://hooks.example.com/T0KEN/x7?k=Z: 1\n",
        "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw:\n"}) {
    const fs::path file = write("format: slack\n" + pasted);
    const std::string message = error_of({{"PERFGATE_WEBHOOK_CONFIG", file.string()}});
    EXPECT_NE(message.find(file.string() + ":2: an unknown key (not shown"), std::string::npos) << message;
    for (const char* secret : {"MfKQ9r8G", "T0KEN", "x7", "hooks.example"})
      EXPECT_EQ(message.find(secret), std::string::npos) << message;
  }
  const fs::path file = write("format: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n");
  const std::string message = error_of({{"PERFGATE_WEBHOOK_CONFIG", file.string()}});
  EXPECT_NE(message.find("format must be generic or slack"), std::string::npos) << message;
  EXPECT_EQ(message.find("MfKQ9r8G"), std::string::npos) << message;
}

// Read like every YAML file perfgate reads (core/yaml_load.h): bounded in size, plain YAML only,
// each key once.
TEST_F(NotifyConfigFile, OversizeAliasedOrRepeatedFilesAreRefused) {
  const fs::path big = write("url: https://receiver.example.com/hook\n# " + std::string(70000, 'x') + "\n");
  std::string message = error_of({{"PERFGATE_WEBHOOK_CONFIG", big.string()}});
  EXPECT_NE(message.find("over the limit of 65536 bytes"), std::string::npos) << message;

  const fs::path aliased = write("format: &f slack\nsend: *f\n");
  message = error_of({{"PERFGATE_WEBHOOK_CONFIG", aliased.string()}});
  EXPECT_NE(message.find(aliased.string() + ":1"), std::string::npos) << message;
  EXPECT_NE(message.find("an anchor (&name) is not allowed"), std::string::npos) << message;

  const fs::path twice = write("format: slack\nformat: generic\n");
  message = error_of({{"PERFGATE_WEBHOOK_CONFIG", twice.string()}});
  EXPECT_NE(message.find(twice.string() + ":2: format: given twice"), std::string::npos) << message;

  message = error_of({{"PERFGATE_WEBHOOK_CONFIG", (dir_ / "absent.yaml").string()}});
  EXPECT_NE(message.find("absent.yaml: cannot be read"), std::string::npos) << message;
}

TEST(NotifyConfig, AnHttpUrlCarryingATokenIsWarnedAboutOnce) {
  std::vector<std::string> warnings;
  load({{"PERFGATE_WEBHOOK_URL", "http://hooks.example.com/T0KEN?k=Z"}}, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("http://hooks.example.com is http://"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[0].find("T0KEN"), std::string::npos) << warnings[0];
  warnings.clear();
  load({{"PERFGATE_WEBHOOK_URL", "https://hooks.example.com/T0KEN?k=Z"}}, &warnings);
  load({{"PERFGATE_WEBHOOK_URL", "http://hooks.example.com/"}}, &warnings);
  EXPECT_TRUE(warnings.empty());
}

TEST_F(NotifyConfigFile, WarnsAboutFilesOthersCanRead) {
  const fs::path file = write("url: https://receiver.example.com/hook\n");
  fs::permissions(file, fs::perms::group_read | fs::perms::others_read, fs::perm_options::add);
  std::vector<std::string> warnings;
  load({{"PERFGATE_WEBHOOK_CONFIG", file.string()}}, &warnings);
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].find("chmod 600"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
