#include "perfgate/params.h"

#include "perfgate/error.h"

namespace perfgate {

std::int64_t Params::operator[](std::string_view axis) const {
  for (const auto& [name, value] : values_)
    if (name == axis) return value;
  throw Error("parameter point " + id() + " has no axis '" + std::string(axis) + "'");
}

bool Params::has(std::string_view axis) const {
  for (const auto& entry : values_)
    if (entry.first == axis) return true;
  return false;
}

std::string Params::id() const {
  std::string text;
  for (const auto& [name, value] : values_) {
    if (!text.empty()) text += ',';
    text += name + '=' + std::to_string(value);
  }
  return text;
}

}  // namespace perfgate
