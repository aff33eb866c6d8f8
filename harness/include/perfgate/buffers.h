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

}  // namespace perfgate
