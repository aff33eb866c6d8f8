#pragma once
// A parameter point: ordered (axis name, value) pairs, e.g. m=4096,k=4096.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perfgate {

class Params {
 public:
  Params() = default;
  explicit Params(std::vector<std::pair<std::string, std::int64_t>> values) : values_(std::move(values)) {}

  // The value of an axis; throws perfgate::Error naming the axis when it is absent.
  std::int64_t operator[](std::string_view axis) const;
  bool has(std::string_view axis) const;
  // "m=4096,k=4096": the axis order of the kernel definition, stable across runs.
  std::string id() const;
  const std::vector<std::pair<std::string, std::int64_t>>& values() const { return values_; }

 private:
  std::vector<std::pair<std::string, std::int64_t>> values_;
};

}  // namespace perfgate
