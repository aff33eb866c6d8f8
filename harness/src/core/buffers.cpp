#include "perfgate/buffers.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>

#include "perfgate/error.h"

namespace perfgate {

void* allocate_pages(std::size_t bytes) {
  constexpr std::size_t kPage = 4096, kHugePage = std::size_t{2} << 20;
  const std::size_t align = bytes >= kHugePage ? kHugePage : kPage;
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (!p) throw std::bad_alloc();
  // Advice only: where transparent huge pages are off this changes nothing.
  if (align == kHugePage) madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

void free_pages(void* p, std::size_t) { std::free(p); }

std::size_t element_size(ElementType type) {
  switch (type) {
    case ElementType::f32:
    case ElementType::u32:
    case ElementType::i32: return 4;
    case ElementType::f16:
    case ElementType::bf16:
    case ElementType::u16: return 2;
    case ElementType::u8:
    case ElementType::i8: return 1;
    case ElementType::block: return 0;
  }
  return 1;
}

std::string_view to_string(ElementType type) {
  switch (type) {
    case ElementType::f32: return "f32";
    case ElementType::f16: return "f16";
    case ElementType::bf16: return "bf16";
    case ElementType::u8: return "u8";
    case ElementType::i8: return "i8";
    case ElementType::u16: return "u16";
    case ElementType::u32: return "u32";
    case ElementType::i32: return "i32";
    case ElementType::block: return "block";
  }
  return "?";
}

BufferSpec block_buffer(std::string name, std::shared_ptr<const BlockFormat> format, std::size_t count,
                        BufferRole role) {
  if (!format || format->bytes == 0)
    throw Error("block buffer '" + name + "': its BlockFormat is missing or has 0 bytes per block");
  return {std::move(name), ElementType::block, count, role, std::move(format)};
}

namespace {

// Elements widened a chunk at a time: small enough to stay in cache, large enough that the call
// per chunk costs nothing.
constexpr std::size_t kValueChunk = 4096;

template <class T, class Widen>
void widen_chunks(std::span<const T> values, Widen widen,
                  const std::function<void(std::span<const double>)>& chunk) {
  double out[kValueChunk];
  for (std::size_t begin = 0; begin < values.size(); begin += kValueChunk) {
    const std::size_t count = std::min(kValueChunk, values.size() - begin);
    for (std::size_t i = 0; i < count; ++i) out[i] = widen(values[begin + i]);
    chunk(std::span<const double>(out, count));
  }
}

}  // namespace

void for_each_value_chunk(const HostBuffer& buffer,
                          const std::function<void(std::span<const double>)>& chunk) {
  const auto plain = [](auto v) { return static_cast<double>(v); };
  switch (buffer.spec.type) {
    case ElementType::f32: return widen_chunks(buffer.as<float>(), plain, chunk);
    case ElementType::u8: return widen_chunks(buffer.as<std::uint8_t>(), plain, chunk);
    case ElementType::i8: return widen_chunks(buffer.as<std::int8_t>(), plain, chunk);
    case ElementType::u16: return widen_chunks(buffer.as<std::uint16_t>(), plain, chunk);
    case ElementType::u32: return widen_chunks(buffer.as<std::uint32_t>(), plain, chunk);
    case ElementType::i32: return widen_chunks(buffer.as<std::int32_t>(), plain, chunk);
    case ElementType::f16:
      return widen_chunks(
          buffer.as<std::uint16_t>(), [](std::uint16_t b) { return double{from_half(b)}; }, chunk);
    case ElementType::bf16:
      return widen_chunks(
          buffer.as<std::uint16_t>(), [](std::uint16_t b) { return double{from_bfloat16(b)}; }, chunk);
    case ElementType::block: {
      const BlockFormat* format = buffer.spec.format.get();
      if (!format || !format->decode)
        throw Error("buffer '" + buffer.spec.name + "' holds blocks with no decode: its BlockFormat" +
                    (format ? " " + format->name : std::string()) + " gives none, so it cannot be compared");
      std::vector<double> out(format->values);
      const std::span<const std::byte> bytes(buffer.data.data(), buffer.data.size());
      for (std::size_t b = 0; b < buffer.spec.count; ++b) {
        format->decode(bytes.subspan(b * format->bytes, format->bytes), out);
        chunk(out);
      }
      return;
    }
  }
}

std::vector<double> element_values(const HostBuffer& buffer) {
  std::vector<double> out;
  for_each_value_chunk(
      buffer, [&](std::span<const double> values) { out.insert(out.end(), values.begin(), values.end()); });
  return out;
}

Buffers::Buffers(const std::vector<BufferSpec>& specs) {
  buffers_.reserve(specs.size());
  for (const auto& spec : specs) buffers_.push_back({spec, ByteVector(spec.bytes())});
}

std::size_t Buffers::index_of(std::string_view name) const {
  for (std::size_t i = 0; i < buffers_.size(); ++i)
    if (buffers_[i].spec.name == name) return i;
  throw Error("no buffer named '" + std::string(name) + "'");
}

HostBuffer& Buffers::operator[](std::string_view name) { return buffers_[index_of(name)]; }
const HostBuffer& Buffers::operator[](std::string_view name) const { return buffers_[index_of(name)]; }

std::uint16_t to_half(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u)  // Inf or NaN
    return static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflows to Inf
  if (abs < 0x38800000u) {  // subnormal half (or zero): round the shifted mantissa to nearest even
    const std::uint32_t shift = 113u - (abs >> 23);
    if (shift > 24) return static_cast<std::uint16_t>(sign);
    const std::uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    std::uint32_t half = mantissa >> (shift + 13);
    const std::uint32_t rest = mantissa & ((1u << (shift + 13)) - 1);
    const std::uint32_t halfway = 1u << (shift + 12);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = ((abs - 0x38000000u) >> 13);
  const std::uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<std::uint16_t>(sign | half);
}

float from_half(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  std::uint32_t f;
  if (exponent == 0x1f) {
    f = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    f = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    f = sign;
  } else {  // subnormal: normalise
    std::uint32_t e = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    f = sign | (e << 23) | ((mantissa & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(f);
}

std::uint16_t to_bfloat16(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((f >> 16) | 0x40u);  // quiet NaN
  const std::uint32_t rounded = f + 0x7fffu + ((f >> 16) & 1u);  // to nearest even; overflows to Inf
  return static_cast<std::uint16_t>(rounded >> 16);
}

float from_bfloat16(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

}  // namespace perfgate
