#pragma once
// Text inside the Markdown reports (GitHub-flavoured): what a table cell or a code span may
// hold without ending the cell or the row.
#include <string>

namespace perfgate {

// Text in a table cell or list item: pipes and line breaks would end the cell or the row, and
// '<' would start HTML (GitHub drops tags it does not allow, and the text with them).
std::string markdown_cell(const std::string& text);
// A code span shows entities literally: only the pipe (a GFM table rule) and line breaks.
std::string markdown_code(const std::string& text);

}  // namespace perfgate
