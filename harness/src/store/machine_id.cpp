#include "store/machine_id.h"

#include <cstdio>

namespace perfgate {

std::optional<std::string> machine_id_problem(const std::string& id) {
  if (id.empty()) return std::string("the machine id is empty");
  const std::string shown = "machine id \"" + id.substr(0, 80) + (id.size() > 80 ? "..." : "") + "\"";
  if (id.size() > kMaxMachineIdChars)
    return shown + " is longer than " + std::to_string(kMaxMachineIdChars) + " characters";
  if (id.front() == '.') return shown + " starts with '.'";
  for (const char c : id) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '-' || c == '_' ||
        c == '.')
      continue;
    char code[8];
    std::snprintf(code, sizeof code, "0x%02x", u);
    return shown + " holds " + (u >= 0x20 && u < 0x7f ? "'" + std::string(1, c) + "'" : std::string(code)) +
           "; a machine id is letters, digits, '-', '_' and '.' (it names a file)";
  }
  return std::nullopt;
}

}  // namespace perfgate
