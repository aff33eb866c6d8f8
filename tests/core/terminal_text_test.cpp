// Text from outside shown on a terminal: every escape sequence visible, never obeyed; UTF-8 and
// plain text unchanged.
#include "core/terminal_text.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

TEST(TerminalText, ShowsControlCharactersAsText) {
  EXPECT_EQ(terminal_text("\x1b]0;owned\x07title"), "\\e]0;owned\\x07title");  // an OSC title
  EXPECT_EQ(terminal_text("\x1b[2Jclear"), "\\e[2Jclear");
  EXPECT_EQ(terminal_text("over\rwrite"), "over\\rwrite");
  EXPECT_EQ(terminal_text(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(terminal_text("del\x7f"), "del\\x7f");
  EXPECT_EQ(terminal_text("c1 \xc2\x9b"
                          "2J"),
            "c1 \\u009b2J");  // CSI as a C1 code point
  EXPECT_EQ(terminal_text("raw \x9b"
                          "2J"),
            "raw \\x9b2J");  // and as a byte that is no UTF-8
  EXPECT_EQ(terminal_text("cut \xe2\x82"), "cut \\xe2\\x82");
  EXPECT_EQ(terminal_text("overlong \xc0\xaf"), "overlong \\xc0\\xaf");
}

TEST(TerminalText, LeavesTextAndUtf8AsTheyAre) {
  EXPECT_EQ(terminal_text("kernel: 2x faster µs é ✓ 😀"), "kernel: 2x faster µs é ✓ 😀");
  EXPECT_EQ(terminal_text("two\nlines\tand a tab"), "two\nlines\tand a tab");
  EXPECT_EQ(terminal_text("a\\eb"), "a\\eb");
  const std::string once = terminal_text("\x1b[31mred\x9b");
  EXPECT_EQ(terminal_text(once), once);
}

}  // namespace
}  // namespace perfgate
