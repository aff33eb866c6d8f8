#pragma once
// Text inside the Markdown reports and the pull request comment (GitHub- and GitLab-flavoured):
// what a table cell, a list item or a code span may hold so that a string from a results file
// (a case id, machine id, branch, reason) stays text: it ends no cell or row, starts no HTML,
// link, image, emphasis, math or autolink, and notifies nobody.
#include <string>

namespace perfgate {

// Text in a table cell or list item. Line breaks become spaces and other control characters
// their visible symbols (U+2400..U+2421), bidirectional controls U+FFFD; the Markdown punctuation
// is backslash-escaped, '<', '>' and '&' become entities (GitHub drops tags it does not allow,
// and the text with them), "://" and "www." lose their autolink, and '@' and '#' before a name
// or number get a zero-width space after them, so that no mention, team ping or cross-reference
// is made (GitHub's and GitLab's reference filters run on the rendered text, after escapes).
std::string markdown_cell(const std::string& text);
// Where a code span stands: in a table row GFM splits the row at a pipe before it parses code
// spans, so a pipe is escaped there; in a paragraph or list item the escape would show.
enum class CodeIn { table, prose };
// A code span: no Markdown, HTML, mention or link is recognised inside one and entities show
// literally, so only what ends the span or the row is replaced: a backtick (by '), in a table a
// pipe (escaped), line breaks and the control characters as in markdown_cell.
std::string markdown_code(const std::string& text, CodeIn in = CodeIn::table);

}  // namespace perfgate
