#include "store/yaml_document.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "core/yaml_load.h"

namespace perfgate {
namespace {

std::string joined(const std::string& at, const std::string& key) {
  return at.empty() ? key : at + "." + key;
}

}  // namespace

std::string round_trip_text(double value) {
  if (!std::isfinite(value)) throw Error("cannot store a sample that is not a finite number");
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  if (ec != std::errc()) throw Error("cannot format a sample");
  return std::string(text, end);
}

YamlDocument::YamlDocument(std::string file, const std::string& text) : file_(std::move(file)) {
  root_ = load_plain_yaml(text, file_);
  if (!root_.IsMap())
    throw located_error(file_, 1, "", "expected a YAML map at the top (empty or truncated file?)");
}

Error YamlDocument::error(const YAML::Node& at, const std::string& key, const std::string& message) const {
  return yaml_error(file_, at, key, message);
}

void YamlDocument::keys(const YAML::Node& map, const std::string& at,
                        std::initializer_list<std::string_view> allowed) const {
  if (!map.IsMap()) throw error(map, at, "expected a map");
  check_keys(file_, map, at, allowed);
}

YAML::Node YamlDocument::required(const YAML::Node& map, const std::string& key,
                                  const std::string& at) const {
  if (!map.IsMap()) throw error(map, at, "expected a map");
  YAML::Node value = map[key];
  if (!value || value.IsNull()) throw error(map, joined(at, key), "missing (truncated file?)");
  return value;
}

YAML::Node YamlDocument::required_map(const YAML::Node& map, const std::string& key,
                                      const std::string& at) const {
  YAML::Node value = required(map, key, at);
  if (!value.IsMap()) throw error(value, joined(at, key), "expected a map");
  return value;
}

YAML::Node YamlDocument::required_sequence(const YAML::Node& map, const std::string& key,
                                           const std::string& at) const {
  YAML::Node value = required(map, key, at);
  if (!value.IsSequence()) throw error(value, joined(at, key), "expected a list");
  return value;
}

std::string YamlDocument::text(const YAML::Node& map, const std::string& key, const std::string& at) const {
  YAML::Node value = required(map, key, at);
  if (!value.IsScalar()) throw error(value, joined(at, key), "expected text");
  return value.Scalar();
}

std::string YamlDocument::optional_text(const YAML::Node& map, const std::string& key,
                                        const std::string& at) const {
  if (!map.IsMap()) throw error(map, at, "expected a map");
  YAML::Node value = map[key];
  if (!value || value.IsNull()) return "";
  if (!value.IsScalar()) throw error(value, joined(at, key), "expected text");
  return value.Scalar();
}

std::optional<bool> YamlDocument::optional_boolean(const YAML::Node& map, const std::string& key,
                                                   const std::string& at) const {
  const std::string value = optional_text(map, key, at);
  if (value.empty()) return std::nullopt;
  if (value == "true") return true;
  if (value == "false") return false;
  throw error(map[key], joined(at, key), "expected true or false, got \"" + value + "\"");
}

std::int64_t YamlDocument::integer(const YAML::Node& map, const std::string& key,
                                   const std::string& at) const {
  YAML::Node value = required(map, key, at);
  std::int64_t result = 0;
  if (!value.IsScalar() || !YAML::convert<std::int64_t>::decode(value, result))
    throw error(value, joined(at, key), "expected a whole number");
  return result;
}

double YamlDocument::number(const YAML::Node& node, const std::string& at) const {
  const std::optional<double> result = finite_number(node);
  if (!result)
    throw error(node, at, "expected a finite number, got \"" + (node.IsScalar() ? node.Scalar() : "") + "\"");
  return *result;
}

std::vector<double> YamlDocument::numbers(const YAML::Node& node, const std::string& at,
                                          std::size_t max_count) const {
  if (!node.IsSequence() || node.size() == 0) throw error(node, at, "expected a non-empty list of numbers");
  if (node.size() > max_count)
    throw error(node, at,
                std::to_string(node.size()) + " numbers, over the limit of " + std::to_string(max_count));
  std::vector<double> values;
  values.reserve(node.size());
  for (const auto& item : node) values.push_back(number(item, at));
  return values;
}

std::string YamlDocument::where(const YAML::Node& at) const {
  return file_ + ":" + std::to_string(yaml_line(at));
}

std::string YamlDocument::describe_node(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Scalar: return "\"" + node.Scalar() + "\"";
    default: return "nothing";
  }
}

double YamlDocument::plain_number(const YAML::Node& node, const std::string& at) const {
  const std::optional<double> value = node.Tag() == "!" ? std::nullopt : finite_number(node);
  if (!value) throw error(node, at, "expected a number, got " + describe_node(node));
  return *value;
}

double YamlDocument::plain_number_at_least(const YAML::Node& node, const std::string& at, double low) const {
  const double value = plain_number(node, at);
  if (value < low) {
    std::ostringstream text;
    text << low;
    throw error(node, at, "must be at least " + text.str() + ", got " + node.Scalar());
  }
  return value;
}

bool YamlDocument::plain_boolean(const YAML::Node& node, const std::string& at) const {
  bool value = false;
  if (!node.IsScalar() || node.Tag() == "!" || !YAML::convert<bool>::decode(node, value))
    throw error(node, at, "expected true or false, got " + describe_node(node));
  return value;
}

int YamlDocument::plain_integer_at_least(const YAML::Node& node, const std::string& at, int low) const {
  int value = 0;
  if (!node.IsScalar() || node.Tag() == "!" || !YAML::convert<int>::decode(node, value))
    throw error(node, at, "expected a whole number, got " + describe_node(node));
  if (value < low) throw error(node, at, "must be at least " + std::to_string(low) + ", got " + node.Scalar());
  return value;
}

std::string YamlDocument::scalar_text(const YAML::Node& node, const std::string& at) const {
  if (!node.IsScalar()) throw error(node, at, "expected a string, got " + describe_node(node));
  return node.Scalar();
}

}  // namespace perfgate
