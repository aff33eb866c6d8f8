#pragma once
// Reading the YAML files perfgate keeps in a repository (baselines, candidates, thresholds), which
// anyone with a merged pull request can change, and the webhook config: bounded in size before a
// byte is parsed, and plain YAML only. Anchors and aliases are refused because perfgate never writes them and
// an alias repeated a thousand times turns a 500 KB file into minutes and gigabytes of work.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/error.h"

namespace perfgate {

// The file's bytes; throws Error naming the file and `max_bytes` when it is larger (checked
// before reading), or naming the file when it cannot be read.
std::string read_bounded_file(const std::filesystem::path& file, std::uintmax_t max_bytes);

// Parses `text`; throws Error "file:line: ..." when it is malformed, holds an anchor or an
// alias, or does not fit in memory.
YAML::Node load_plain_yaml(const std::string& text, const std::string& file);

// Refuses keys of `map` that are not in `allowed` (when it is not empty), and keys given twice (which
// yaml-cpp silently accepts): Error "file:line: path.key: unknown key (expected one of: ...)".
void check_keys(const std::string& file, const YAML::Node& map, const std::string& path,
                std::initializer_list<std::string_view> allowed);

// The 1-based line of `node` in its file, as editors count (yaml-cpp's marks count from 0).
int yaml_line(const YAML::Node& node);
// Error "file:line: key: message" at `at`'s line: what every reader of these files throws.
Error yaml_error(const std::string& file, const YAML::Node& at, const std::string& key,
                 const std::string& message);

// The value of a scalar holding a finite number ("15", "1e3", "0.5"); nothing for anything else.
std::optional<double> finite_number(const YAML::Node& node);

}  // namespace perfgate
