#pragma once
// Text from outside perfgate (a commit subject, a value named in an error, a run id read from a
// file) as a terminal shows it: plain text, never a command to the terminal. Control characters
// (C0 but newline and tab, DEL, C1) and bytes that are not UTF-8 become visible escapes: ESC is
// "\e", CR "\r", others "\xNN" (a byte) or "\u0080".."\u009f" (a C1 code point), so an escape
// sequence (an OSC title, "\e[2J", a C1 CSI) is shown rather than obeyed. Applying it twice
// changes nothing more. Every table (report/text_table.h) and every line perfgate writes to
// stderr about such text goes through it.
#include <string>
#include <string_view>

namespace perfgate {

std::string terminal_text(std::string_view text);

}  // namespace perfgate
