// The escaping of results-file strings in the Markdown reports and the pull request comment:
// hand-made hostile strings, and seeded random ones whose escaped text must read back as the
// string (less its control characters) with nothing left that Markdown would act on.
#include "report/markdown_text.h"

#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <string>

namespace perfgate {
namespace {

TEST(MarkdownText, HostileStringsStayText) {
  EXPECT_EQ(markdown_cell("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(markdown_cell("[x](https://evil.example)"), "\\[x\\](https\\://evil.example)");
  EXPECT_EQ(markdown_cell("see www.evil.example"), "see www\\.evil.example");
  EXPECT_EQ(markdown_cell("a|b"), "a\\|b");
  EXPECT_EQ(markdown_cell("`code` *em* ~~no~~ $x$ ![i]"),
            "\\`code\\` \\*em\\* \\~\\~no\\~\\~ \\$x\\$ \\!\\[i\\]");
  EXPECT_EQ(markdown_cell("a\\|b"), "a\\\\\\|b");
  EXPECT_EQ(markdown_cell("&lt;"), "&amp;lt;");
  // Mentions, team pings and cross-references get a zero-width space; an e-mail address too.
  EXPECT_EQ(markdown_cell("@channel @org/team #12 me@host.example"),
            "@&#8203;channel @&#8203;org/team #&#8203;12 me@&#8203;host.example");
  EXPECT_EQ(markdown_cell("a @ b # c"), "a @ b # c");
  // Intraword underscores never emphasise, and stay as written.
  EXPECT_EQ(markdown_cell("latency_ns _em_"), "latency_ns \\_em\\_");
}

TEST(MarkdownText, LineBreaksAndControlCharacters) {
  EXPECT_EQ(markdown_cell("one\ntwo\r\nthree\tfour"), "one two  three four");
  EXPECT_EQ(markdown_cell("red\x1b[31m"), "red\xE2\x90\x9B\\[31m");          // ESC shows as U+241B
  EXPECT_EQ(markdown_cell(std::string("nul\0!", 5)), "nul\xE2\x90\x80\\!");  // NUL as U+2400
  EXPECT_EQ(markdown_cell("del\x7f"), "del\xE2\x90\xA1");
  // C1 controls, line separators and bidirectional overrides would move the text around them.
  EXPECT_EQ(markdown_cell("a\xC2\x85"
                          "b\xE2\x80\xAE"
                          "c\xE2\x81\xA6"
                          "d\xE2\x80\xA8"),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD"
            "c\xEF\xBF\xBD"
            "d\xEF\xBF\xBD");
  // Other non-ASCII text is kept: µs, é, 日本.
  EXPECT_EQ(markdown_cell("800 \xC2\xB5s \xC3\xA9 \xE6\x97\xA5"), "800 \xC2\xB5s \xC3\xA9 \xE6\x97\xA5");
}

TEST(MarkdownText, CodeSpans) {
  EXPECT_EQ(markdown_code("copy/cpu/n=4096"), "`copy/cpu/n=4096`");
  EXPECT_EQ(markdown_code("a|b`c"), "`a\\|b'c`");
  EXPECT_EQ(markdown_code("a|b`c", CodeIn::prose), "`a|b'c`");  // outside a table the escape would show
  EXPECT_EQ(markdown_code("x\ny\x1b"), "`x y\xE2\x90\x9B`");
  // Inside a code span nothing is a mention, a link or HTML: kept as written.
  EXPECT_EQ(markdown_code("<b>@all [x](y)"), "`<b>@all [x](y)`");
}

// What markdown_cell's output reads as: backslash escapes and the four entities undone.
std::string md_read_back(const std::string& escaped) {
  std::string out;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] == '\\' && i + 1 < escaped.size()) {
      out += escaped[++i];
      continue;
    }
    bool entity = false;
    for (const auto& [name, text] :
         {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&#8203;", ""}})
      if (escaped.compare(i, name.size(), name) == 0) {
        out += text;
        i += name.size() - 1;
        entity = true;
        break;
      }
    if (!entity) out += escaped[i];
  }
  return out;
}

TEST(MarkdownText, SeededStringsReadBackWithNothingMarkdownActsOn) {
  const std::string alphabet = "aZ09_ -./:@#<>&|`*[]()!~$\\\n\r\t\x1b\x7f";
  std::mt19937 rng(62);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string text;
    const int length = std::uniform_int_distribution<int>(0, 24)(rng);
    for (int i = 0; i < length; ++i)
      text += alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
    const std::string escaped = markdown_cell(text);
    SCOPED_TRACE(testing::PrintToString(text) + " -> " + testing::PrintToString(escaped));
    // Nothing is lost but the control characters, which became spaces or visible symbols.
    std::string visible;
    for (char c : text)
      visible += c == '\n' || c == '\r' || c == '\t' ? std::string(" ")
                 : c == '\x1b'                       ? std::string("\xE2\x90\x9B")
                 : c == '\x7f'                       ? std::string("\xE2\x90\xA1")
                                                     : std::string(1, c);
    EXPECT_EQ(md_read_back(escaped), visible);
    for (std::size_t i = 0; i < escaped.size(); ++i) {
      const auto byte = static_cast<unsigned char>(escaped[i]);
      ASSERT_TRUE(byte >= 0x20 && byte != 0x7F) << "a control byte at " << i;
      std::size_t backslashes = 0;
      while (backslashes < i && escaped[i - 1 - backslashes] == '\\') ++backslashes;
      const bool escaped_char = backslashes % 2 == 1;
      if (std::string("<>|`*[]~$!").find(escaped[i]) != std::string::npos) {
        ASSERT_TRUE(escaped_char) << "an unescaped " << escaped[i] << " at " << i;
      }
      if ((escaped[i] == '@' || escaped[i] == '#') && !(i > 0 && escaped[i - 1] == '&')) {  // not &#8203;
        const char next = i + 1 < escaped.size() ? escaped[i + 1] : ' ';
        ASSERT_FALSE(std::isalnum(static_cast<unsigned char>(next)) || next == '_') << "a mention at " << i;
      }
      if (escaped.compare(i, 3, "://") == 0) {
        ASSERT_TRUE(escaped_char) << "an autolink at " << i;
      }
    }
  }
}

}  // namespace
}  // namespace perfgate
