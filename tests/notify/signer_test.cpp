#include "notify/signer.h"

#include <gtest/gtest.h>

#include "perfgate/error.h"

namespace perfgate {
namespace {

// The Standard Webhooks specification's own example, checked with python3's hmac and base64:
//   base64(hmac.new(b64decode(key), b"msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{...}", sha256))
TEST(NotifySigner, MatchesTheStandardWebhooksVector) {
  Signer signer("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  EXPECT_EQ(signer.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, R"({"test": 2432232314})"),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

// A 32-byte key 00..1f, computed the same way.
TEST(NotifySigner, MatchesAVectorComputedWithPython) {
  Signer signer("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
  EXPECT_EQ(signer.sign("msg_0123", 1700000000, R"({"a":1})"),
            "v1,rmk+ehrLgRLHKu7/1UqNYvRgbjPRfWnGJFTeJEcjRSg=");
  // The prefix is optional, as in the reference libraries.
  Signer bare("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
  EXPECT_EQ(bare.sign("msg_0123", 1700000000, R"({"a":1})"),
            signer.sign("msg_0123", 1700000000, R"({"a":1})"));
}

TEST(NotifySigner, SignatureCoversIdTimestampAndBody) {
  Signer signer("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  const std::string base = signer.sign("msg_a", 100, "{}");
  EXPECT_NE(base, signer.sign("msg_b", 100, "{}"));
  EXPECT_NE(base, signer.sign("msg_a", 101, "{}"));
  EXPECT_NE(base, signer.sign("msg_a", 100, "{ }"));
}

TEST(NotifySigner, RejectsAMalformedSecretWithoutShowingIt) {
  try {
    Signer signer("whsec_not*base64!");
    FAIL() << "accepted a malformed secret";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("not*base64"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Signer("whsec_"), Error);
  EXPECT_THROW(Signer("whsec_abc"), Error);  // bad length
}

TEST(NotifySigner, Base64RoundTrips) {
  for (std::string bytes : {std::string(""), std::string("a"), std::string("ab"), std::string("abc"),
                            std::string("\x00\xff\x10", 3)}) {
    if (bytes.empty()) continue;
    EXPECT_EQ(base64_decode(base64_encode(bytes)), bytes);
  }
  EXPECT_EQ(base64_encode("hello"), "aGVsbG8=");
  EXPECT_EQ(base64_decode("aGVsbG8="), "hello");
  EXPECT_THROW(base64_decode("aGVs=G8="), Error);
}

}  // namespace
}  // namespace perfgate
