#pragma once
// A parsed YAML file whose every error names the file and the line (Mark lines are 0-based;
// messages say 1-based lines, as editors do), and the number text the stores write. The one
// reader of every YAML file perfgate keeps: baselines, candidates and thresholds.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/error.h"

namespace perfgate {

// The largest baseline or candidate file read: a kernel's file on one machine is a few hundred
// KB; a larger one is refused before it is parsed (core/yaml_load.h).
constexpr std::uintmax_t kMaxStoreFileBytes = std::uintmax_t{64} << 20;

// The shortest text that reads back as exactly `value` (std::to_chars): "%.6g" would lose
// nanoseconds, "%.17g" would print 0.10000000000000001. Throws Error on NaN and infinities.
std::string round_trip_text(double value);

// `key: value` in the map being emitted.
template <class T>
void emit_field(YAML::Emitter& out, const char* key, const T& value) {
  out << YAML::Key << key << YAML::Value << value;
}

class YamlDocument {
 public:
  // Throws Error "file:line: ..." when `text` does not parse or holds anchors or aliases
  // (core/yaml_load.h).
  YamlDocument(std::string file, const std::string& text);
  const std::string& file() const { return file_; }
  const YAML::Node& root() const { return root_; }

  Error error(const YAML::Node& at, const std::string& key, const std::string& message) const;

  // Refuses keys of `map` not in `allowed` and keys given twice, naming the line and the key.
  void keys(const YAML::Node& map, const std::string& at,
            std::initializer_list<std::string_view> allowed) const;
  // `map[key]`, which must exist; `at` names the key in messages ("cases.copy/cpu/n=1.runs").
  YAML::Node required(const YAML::Node& map, const std::string& key, const std::string& at) const;
  YAML::Node required_map(const YAML::Node& map, const std::string& key, const std::string& at) const;
  YAML::Node required_sequence(const YAML::Node& map, const std::string& key, const std::string& at) const;
  std::string text(const YAML::Node& map, const std::string& key, const std::string& at) const;
  std::string optional_text(const YAML::Node& map, const std::string& key, const std::string& at) const;
  // `true` or `false` where the key is given, nullopt where it is absent.
  std::optional<bool> optional_boolean(const YAML::Node& map, const std::string& key,
                                       const std::string& at) const;
  std::int64_t integer(const YAML::Node& map, const std::string& key, const std::string& at) const;
  double number(const YAML::Node& node, const std::string& at) const;
  // A non-empty sequence of at most `max_count` finite numbers.
  std::vector<double> numbers(const YAML::Node& node, const std::string& at, std::size_t max_count) const;

  // "file:line" of `at`.
  std::string where(const YAML::Node& at) const;

  // Calls each(key, value, path) for every entry of `map` (nothing where it is absent or empty),
  // refusing keys not in `allowed` and keys given twice.
  template <class Each>
  void fields(const YAML::Node& map, const std::string& path, std::initializer_list<std::string_view> allowed,
              Each&& each) const {
    if (!map || map.IsNull()) return;
    if (!map.IsMap()) throw error(map, path, "expected a map, got " + describe_node(map));
    keys(map, path, allowed);
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = it->first.Scalar();
      each(key, it->second, path.empty() ? key : path + "." + key);
    }
  }

  // Settings a person writes: a plain (unquoted) finite number, "15" in quotes being a string
  // and so an error; a plain true or false; a whole number; a scalar's text.
  double plain_number(const YAML::Node& node, const std::string& at) const;
  double plain_number_at_least(const YAML::Node& node, const std::string& at, double low) const;
  bool plain_boolean(const YAML::Node& node, const std::string& at) const;
  int plain_integer_at_least(const YAML::Node& node, const std::string& at, int low) const;
  std::string scalar_text(const YAML::Node& node, const std::string& at) const;

  // "a list", "a map", "\"text\"" or "nothing": what a message says was found instead.
  static std::string describe_node(const YAML::Node& node);

 private:
  std::string file_;
  YAML::Node root_;
};

}  // namespace perfgate
