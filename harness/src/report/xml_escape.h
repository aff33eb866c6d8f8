#pragma once
// Text and attribute escaping shared by the XML-shaped reports (HTML, SVG, JUnit).
#include <string>
#include <string_view>

namespace perfgate {

// Escapes & < > " ' and drops control characters XML 1.0 forbids (all below 0x20 except tab,
// newline and carriage return), so a kernel's error message cannot break the document.
std::string xml_escape(std::string_view text);

}  // namespace perfgate
