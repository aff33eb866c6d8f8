#pragma once
// Reading the YAML files perfgate keeps in a repository (baselines, candidates, thresholds),
// which anyone with a merged pull request can change: bounded in size before a byte is parsed,
// and plain YAML only. Anchors and aliases are refused because perfgate never writes them and
// an alias repeated a thousand times turns a 500 KB file into minutes and gigabytes of work.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

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

}  // namespace perfgate
