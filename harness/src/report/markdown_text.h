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
// A code span: no Markdown, HTML, mention or link is recognised inside one and entities show
// literally, so only what ends the span or the row is replaced: a backtick (by '), a pipe
// (escaped: GFM splits a table row before it parses code spans), line breaks and the control
// characters as in markdown_cell.
std::string markdown_code(const std::string& text);

}  // namespace perfgate
