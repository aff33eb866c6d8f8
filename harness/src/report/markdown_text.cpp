#include "report/markdown_text.h"

namespace perfgate {

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string markdown_code(const std::string& text) {
  std::string out = "`";
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '`')
      out += '\'';
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out + "`";
}

}  // namespace perfgate
