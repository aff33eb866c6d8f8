#pragma once
// Host-side buffers of one case: the kernel's inputs (filled with random data), its outputs
// (poisoned before every run) and scratch space. Backends mirror them on their device.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace perfgate {

enum class ElementType { f32, f16, u8, u32, i32 };
std::size_t element_size(ElementType type);

enum class BufferRole { input, output, scratch };

struct BufferSpec {
  std::string name;
  ElementType type = ElementType::f32;
  std::size_t count = 0;  // elements
  BufferRole role = BufferRole::input;
  std::size_t bytes() const { return count * element_size(type); }
};

struct HostBuffer {
  BufferSpec spec;
  std::vector<std::byte> data;

  template <class T> std::span<T> as() {
    return {reinterpret_cast<T*>(data.data()), data.size() / sizeof(T)};
  }
  template <class T> std::span<const T> as() const {
    return {reinterpret_cast<const T*>(data.data()), data.size() / sizeof(T)};
  }
};

class Buffers {
 public:
  explicit Buffers(const std::vector<BufferSpec>& specs);
  HostBuffer& operator[](std::string_view name);
  const HostBuffer& operator[](std::string_view name) const;
  template <class T> std::span<T> get(std::string_view name) { return (*this)[name].as<T>(); }
  template <class T> std::span<const T> get(std::string_view name) const {
    return (*this)[name].as<T>();
  }
  std::vector<HostBuffer>& all() { return buffers_; }
  const std::vector<HostBuffer>& all() const { return buffers_; }
  std::size_t index_of(std::string_view name) const;

 private:
  std::vector<HostBuffer> buffers_;
};

// Half precision conversion for f16 buffers (IEEE binary16, round to nearest even).
std::uint16_t to_half(float value);
float from_half(std::uint16_t bits);

}  // namespace perfgate
