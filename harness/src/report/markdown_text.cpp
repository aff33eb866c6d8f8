#include "report/markdown_text.h"

#include <cctype>
#include <string_view>

namespace perfgate {
namespace {

constexpr std::string_view md_replacement_char = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view md_zero_width_space = "&#8203;";       // U+200B, as an entity

// The UTF-8 sequence at text[i] that would move the text or lines around it: C1 controls, the
// line and paragraph separators, the bidirectional marks, embeddings, overrides and isolates
// (Unicode's "Trojan Source" characters). Its length, or 0.
std::size_t md_layout_control_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
  };
  if (byte(0) == 0xC2 && byte(1) >= 0x80 && byte(1) <= 0x9F) return 2;  // U+0080..U+009F
  if (byte(0) == 0xD8 && byte(1) == 0x9C) return 2;                     // U+061C arabic letter mark
  if (byte(0) == 0xE2 && byte(1) == 0x80 &&
      (byte(2) == 0x8E || byte(2) == 0x8F || (byte(2) >= 0xA8 && byte(2) <= 0xAE)))
    return 3;  // U+200E, U+200F, U+2028..U+202E
  if (byte(0) == 0xE2 && byte(1) == 0x81 && byte(2) >= 0xA6 && byte(2) <= 0xA9) return 3;  // U+2066..U+2069
  return 0;
}

// The control character at text[i], appended as what shows instead: a line break or tab as a
// space, a C0 control or DEL as its visible symbol ("\x1b" shows as U+241B), a layout control
// as U+FFFD. How many bytes of text it took, 0 for anything else.
std::size_t md_append_control(std::string& out, std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (c == '\n' || c == '\r' || c == '\t') {
    out += ' ';
    return 1;
  }
  if (c < 0x20 || c == 0x7F) {
    const unsigned symbol = c == 0x7F ? 0x2421 : 0x2400 + c;  // three bytes: E2 90 xx
    out += static_cast<char>(0xE2);
    out += static_cast<char>(0x80 | ((symbol >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (symbol & 0x3F));
    return 1;
  }
  const std::size_t n = md_layout_control_length(text, i);
  if (n) out += md_replacement_char;
  return n;
}

bool md_alnum_at(std::string_view text, std::size_t i) {
  return i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]));
}

bool md_starts_word(std::string_view text, std::size_t i) { return i == 0 || !md_alnum_at(text, i - 1); }

bool md_iequals_at(std::string_view text, std::size_t i, std::string_view word) {
  if (i + word.size() > text.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(text[i + k])) != word[k]) return false;
  return true;
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (const std::size_t n = md_append_control(out, text, i)) {
      i += n - 1;
      continue;
    }
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      // Emphasis, code, links, images, footnotes, strikethrough, math, table cells, escapes.
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '~':
      case '$':
      case '|':
      case '!':
        out += '\\';
        out += c;
        break;
      case '_':  // an underscore inside a word never emphasises: latency_ns stays as written
        if (!(i > 0 && md_alnum_at(text, i - 1) && md_alnum_at(text, i + 1))) out += '\\';
        out += c;
        break;
      case ':':  // https://evil.example would be linked without brackets
        if (text.compare(i + 1, 2, "//") == 0) out += '\\';
        out += c;
        break;
      case '@':
      case '#':
        out += c;
        if (md_alnum_at(text, i + 1) || (i + 1 < text.size() && text[i + 1] == '_'))
          out += md_zero_width_space;
        break;
      default:
        out += c;
        // www.evil.example would be linked too.
        if ((c == 'w' || c == 'W') && md_starts_word(text, i) && md_iequals_at(text, i, "www.")) {
          out += text.substr(i + 1, 2);
          out += "\\.";
          i += 3;
        }
    }
  }
  return out;
}

std::string markdown_code(const std::string& text, CodeIn in) {
  std::string out = "`";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (const std::size_t n = md_append_control(out, text, i)) {
      i += n - 1;
    } else if (c == '|' && in == CodeIn::table) {
      out += "\\|";
    } else if (c == '`') {
      out += '\'';
    } else {
      out += c;
    }
  }
  return out + "`";
}

}  // namespace perfgate
