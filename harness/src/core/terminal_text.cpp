#include "core/terminal_text.h"

#include <cstdio>

namespace perfgate {
namespace {

// The length of the UTF-8 sequence at text[at] (1 to 4), or 0 where it is not one (a stray
// continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short).
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t n = lead < 0x80           ? 1
                  : (lead >> 5) == 0x6  ? 2
                  : (lead >> 4) == 0xE  ? 3
                  : (lead >> 3) == 0x1E ? 4
                                        : 0;
  if (n == 0 || at + n > text.size()) return 0;
  for (std::size_t i = 1; i < n; ++i)
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  if (n == 2 && lead < 0xC2) return 0;                                              // overlong
  if (n == 3 && lead == 0xE0 && byte(at + 1) < 0xA0) return 0;                      // overlong
  if (n == 3 && lead == 0xED && byte(at + 1) >= 0xA0) return 0;                     // surrogate
  if (n == 4 && lead == 0xF0 && byte(at + 1) < 0x90) return 0;                      // overlong
  if (n == 4 && (lead > 0xF4 || (lead == 0xF4 && byte(at + 1) >= 0x90))) return 0;  // past U+10FFFF
  return n;
}

}  // namespace

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char code[12];
  for (std::size_t at = 0; at < text.size();) {
    const auto c = static_cast<unsigned char>(text[at]);
    const std::size_t n = utf8_length(text, at);
    if (n == 0 || (n == 1 && ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F))) {
      if (c == 0x1B)
        out += "\\e";
      else if (c == '\r')
        out += "\\r";
      else {
        std::snprintf(code, sizeof code, "\\x%02x", c);
        out += code;
      }
      ++at;
      continue;
    }
    if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[at + 1]) < 0xA0) {  // C1: U+0080..U+009F
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(text[at + 1]));
      out += code;
      at += 2;
      continue;
    }
    out.append(text.substr(at, n));
    at += n;
  }
  return out;
}

}  // namespace perfgate
