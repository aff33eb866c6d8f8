#include "notify/signer.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <string>

#include "perfgate/error.h"

namespace perfgate {

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  int n =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::string base64_decode(std::string_view text) {
  // EVP_DecodeBlock skips no whitespace checks of its own and keeps padding bytes, so the
  // alphabet and padding are checked here.
  if (text.empty() || text.size() % 4 != 0) throw Error("not base64: bad length");
  std::size_t padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    bool alphabet = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                    ch == '+' || ch == '/';
    if (ch == '=' && i + 2 >= text.size()) {
      ++padding;
      continue;
    }
    if (!alphabet || padding > 0) throw Error("not base64: unexpected character");
  }
  std::string out(3 * text.size() / 4, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) throw Error("not base64");
  out.resize(static_cast<std::size_t>(n) - padding);
  return out;
}

Signer::Signer(std::string_view secret) {
  constexpr std::string_view prefix = "whsec_";
  if (secret.starts_with(prefix)) secret.remove_prefix(prefix.size());
  try {
    key_ = base64_decode(secret);
  } catch (const Error&) {
    throw Error("PERFGATE_WEBHOOK_SECRET: expected whsec_ followed by base64 (value not shown)");
  }
}

std::string Signer::sign(std::string_view id, std::int64_t timestamp_unix, std::string_view body) const {
  std::string content;
  content.reserve(id.size() + body.size() + 24);
  content.append(id).append(".").append(std::to_string(timestamp_unix)).append(".").append(body);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_size = 0;
  if (HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
           reinterpret_cast<const unsigned char*>(content.data()), content.size(), mac, &mac_size) == nullptr)
    throw Error("HMAC-SHA256 failed");
  return "v1," + base64_encode(std::string_view(reinterpret_cast<const char*>(mac), mac_size));
}

}  // namespace perfgate
