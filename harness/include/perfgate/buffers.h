#pragma once
// Host-side buffers of one case: the kernel's inputs (filled with random data), its outputs
// (poisoned before every run) and scratch space. Backends mirror them on their device.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

// bf16: bfloat16 (the upper half of an f32). block: an opaque element of a BlockFormat's bytes.
enum class ElementType { f32, f16, bf16, u8, i8, u16, u32, i32, block };
// Bytes per element; a block's size is its format's (BufferSpec::bytes), so 0 here.
std::size_t element_size(ElementType type);
std::string_view to_string(ElementType type);

enum class BufferRole { input, output, scratch };

// An opaque element the harness copies but cannot read, such as a quantised block of weights
// (Q8_0: an f16 scale and 32 int8 values in 34 bytes). `decode` turns one block into its
// `values`, which the reference comparison sees; `encode`, where given, turns `values` numbers
// into a block, and the default fill of an input encodes random values in [-1, 1] with it
// (without it the fill writes random bytes, which need not be a valid block: a NaN scale).
struct BlockFormat {
  std::string name;        // for messages, e.g. "q8_0"
  std::size_t bytes = 0;   // per block
  std::size_t values = 0;  // decoded values per block
  std::function<void(std::span<const std::byte> block, std::span<double> values)> decode;
  std::function<void(std::span<const double> values, std::span<std::byte> block)> encode;
};

struct BufferSpec {
  std::string name;
  ElementType type = ElementType::f32;
  std::size_t count = 0;  // elements (blocks for ElementType::block)
  BufferRole role = BufferRole::input;
  std::shared_ptr<const BlockFormat> format;  // ElementType::block only
  std::size_t bytes() const {
    return count * (type == ElementType::block && format ? format->bytes : element_size(type));
  }
};
// A buffer of `count` blocks of `format`.
BufferSpec block_buffer(std::string name, std::shared_ptr<const BlockFormat> format, std::size_t count,
                        BufferRole role);

// Page-aligned storage; large buffers are advised to use transparent huge pages, so a
// streaming kernel's bandwidth depends neither on where malloc put the buffer nor on how
// fragmented memory was when it was allocated (4 KiB pages cost TLB misses at these sizes).
void* allocate_pages(std::size_t bytes);
void free_pages(void* p, std::size_t bytes);
template <class T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_pages(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { free_pages(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const PageAllocator<U>&) const {
    return true;
  }
};
using ByteVector = std::vector<std::byte, PageAllocator<std::byte>>;

struct HostBuffer {
  BufferSpec spec;
  ByteVector data;

  template <class T>
  std::span<T> as() {
    return {reinterpret_cast<T*>(data.data()), data.size() / sizeof(T)};
  }
  template <class T>
  std::span<const T> as() const {
    return {reinterpret_cast<const T*>(data.data()), data.size() / sizeof(T)};
  }
};

class Buffers {
 public:
  explicit Buffers(const std::vector<BufferSpec>& specs);
  HostBuffer& operator[](std::string_view name);
  const HostBuffer& operator[](std::string_view name) const;
  template <class T>
  std::span<T> get(std::string_view name) {
    return (*this)[name].as<T>();
  }
  template <class T>
  std::span<const T> get(std::string_view name) const {
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
// bfloat16 conversion for bf16 buffers (round to nearest even; a NaN stays a NaN).
std::uint16_t to_bfloat16(float value);
float from_bfloat16(std::uint16_t bits);

// An output's elements as doubles, whatever its element type (blocks through their format's
// decode), for the reference comparison: handed to `chunk` a few thousand at a time, in order, so
// a 2^25-element output is compared without a second copy of it in memory. Throws Error naming
// the buffer for a block buffer without a format or decode.
void for_each_value_chunk(const HostBuffer& buffer,
                          const std::function<void(std::span<const double>)>& chunk);
// The same, all at once.
std::vector<double> element_values(const HostBuffer& buffer);

}  // namespace perfgate
