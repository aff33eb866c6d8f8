#pragma once
// SHA-256 of content, as "sha256:<64 lowercase hex digits>".
#include <string>
#include <string_view>

namespace perfgate {

std::string sha256_digest(std::string_view content);

}  // namespace perfgate
