#pragma once
// Standard Webhooks signatures (https://www.standardwebhooks.com): the signed content is
// "<webhook-id>.<webhook-timestamp>.<body>", the key is the base64 part of a "whsec_" secret,
// and the header value is "v1,<base64 of HMAC-SHA256>".
#include <cstdint>
#include <string>
#include <string_view>

namespace perfgate {

std::string base64_encode(std::string_view bytes);
// Throws perfgate::Error on characters outside the standard alphabet or a bad length.
std::string base64_decode(std::string_view text);

class Signer {
 public:
  // `secret` is "whsec_<base64>" (the prefix is optional). Throws perfgate::Error when it is
  // not valid base64; the message never contains the secret.
  explicit Signer(std::string_view secret);
  // The webhook-signature header value.
  std::string sign(std::string_view id, std::int64_t timestamp_unix, std::string_view body) const;

 private:
  std::string key_;
};

}  // namespace perfgate
