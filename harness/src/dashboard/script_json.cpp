#include "dashboard/script_json.h"

namespace perfgate {

std::string script_safe_json(const nlohmann::json& value) {
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8; they only occur inside strings.
    else if (c == '\xE2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
             (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else
      out += c;
  }
  return out;
}

std::string data_script(const std::string& kind, const std::string& key, const nlohmann::json& value) {
  return "perfgateData(" + script_safe_json(kind) + "," + script_safe_json(key) + "," +
         script_safe_json(value) + ");\n";
}

}  // namespace perfgate
