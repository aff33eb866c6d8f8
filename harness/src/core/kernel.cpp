#include "perfgate/kernel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

#include "perfgate/error.h"

namespace perfgate {

std::string_view to_string(Backend backend) { return backend == Backend::cpu ? "cpu" : "vulkan"; }

std::vector<BufferBinding> Dispatch::all_bindings() const {
  std::vector<BufferBinding> all;
  for (std::size_t i = 0; i < bindings.size(); ++i)
    all.push_back({0, static_cast<std::uint32_t>(i), bindings[i]});
  all.insert(all.end(), bound.begin(), bound.end());
  return all;
}

std::vector<SpecConstant> Dispatch::all_constants() const {
  std::vector<SpecConstant> all;
  for (std::size_t i = 0; i < specialization.size(); ++i)
    all.push_back({static_cast<std::uint32_t>(i), ConstantType::word, specialization[i]});
  all.insert(all.end(), constants.begin(), constants.end());
  return all;
}

std::string_view to_string(ConstantType type) {
  switch (type) {
    case ConstantType::int32: return "int";
    case ConstantType::uint32: return "uint";
    case ConstantType::float32: return "float";
    case ConstantType::boolean: return "bool";
    case ConstantType::word: break;
  }
  return "word";
}

std::string SpecConstant::value_text() const {
  char text[32];
  switch (type) {
    case ConstantType::int32: return std::to_string(static_cast<std::int32_t>(bits));
    case ConstantType::uint32: return std::to_string(bits) + "u";
    case ConstantType::float32:
      std::snprintf(text, sizeof text, "%gf", double(std::bit_cast<float>(bits)));
      break;
    case ConstantType::boolean: return bits != 0 ? "true" : "false";
    case ConstantType::word: std::snprintf(text, sizeof text, "0x%08x", bits); break;
  }
  return text;
}

Backend backend_from_string(std::string_view name) {
  if (name == "cpu") return Backend::cpu;
  if (name == "vulkan") return Backend::vulkan;
  throw Error("unknown backend '" + std::string(name) + "' (expected cpu or vulkan)");
}

bool Axis::applies_to(Backend backend) const {
  return backends.empty() || std::find(backends.begin(), backends.end(), backend) != backends.end();
}

KernelDef& KernelDef::axis(std::string name, std::vector<std::int64_t> values,
                           std::vector<Backend> backends) {
  axes_.push_back({std::move(name), std::move(values), std::move(backends)});
  return *this;
}

KernelDef& KernelDef::axis_limits(const std::string& name, std::int64_t min_value, std::int64_t max_value) {
  bool found = false;
  for (Axis& a : axes_)
    if (a.name == name) {
      a.min_value = min_value;
      a.max_value = max_value;
      found = true;
    }
  if (!found || min_value > max_value)
    throw Error("kernel " + name_ + ": axis_limits(" + name +
                ") names no axis, or its minimum exceeds its maximum");
  return *this;
}

KernelDef& KernelDef::reference(ReferenceFn fn, double rel_l2_tolerance, std::string_view /*why*/) {
  reference_ = std::move(fn);
  tolerance_ = rel_l2_tolerance;
  return *this;
}

bool KernelDef::has_backend(Backend backend) const {
  return backend == Backend::cpu ? static_cast<bool>(cpu_) : static_cast<bool>(vulkan_);
}

std::vector<BufferSpec> KernelDef::buffer_specs(const Params& params) const {
  if (!buffers_) throw Error("kernel " + name_ + " declares no buffers");
  std::vector<BufferSpec> specs = buffers_(params);
  for (const auto& spec : specs)
    if (spec.type == ElementType::block && (!spec.format || spec.format->bytes == 0))
      throw Error("kernel " + name_ + ": buffer '" + spec.name +
                  "' holds blocks but has no BlockFormat with a size (declare it with block_buffer)");
  return specs;
}

// Blocks of random values in [-1, 1], through the format's encode.
static void encode_random_blocks(HostBuffer& buffer, Rng& rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const BlockFormat& format = *buffer.spec.format;
  std::vector<double> values(format.values);
  const std::span<std::byte> bytes(buffer.data.data(), buffer.data.size());
  for (std::size_t b = 0; b < buffer.spec.count; ++b) {
    for (double& v : values) v = uniform(rng);
    format.encode(values, bytes.subspan(b * format.bytes, format.bytes));
  }
}

void KernelDef::fill_inputs(const Params& params, Buffers& buffers, Rng& rng) const {
  if (fill_) {
    fill_(params, buffers, rng);
    return;
  }
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (auto& buffer : buffers.all()) {
    if (buffer.spec.role != BufferRole::input) continue;
    switch (buffer.spec.type) {
      case ElementType::f32:
        for (float& x : buffer.as<float>()) x = uniform(rng);
        break;
      case ElementType::f16:
        for (std::uint16_t& x : buffer.as<std::uint16_t>()) x = to_half(uniform(rng));
        break;
      case ElementType::bf16:
        for (std::uint16_t& x : buffer.as<std::uint16_t>()) x = to_bfloat16(uniform(rng));
        break;
      case ElementType::block:
        if (buffer.spec.format->encode) {
          encode_random_blocks(buffer, rng);
          break;
        }
        [[fallthrough]];
      default:
        for (std::byte& b : buffer.data) b = static_cast<std::byte>(rng());
        break;
    }
  }
}

Cost KernelDef::cost_of(const Params& params) const { return cost_ ? cost_(params) : Cost{}; }

namespace {

// Sums for the relative L2 error, fed in order a chunk of actual values at a time (doubles widened
// from an output buffer, or a kernel's floats as they are).
struct L2Error {
  const std::vector<double>& expected;
  std::size_t seen = 0;
  double diff = 0, norm = 0;
  bool finite = true;

  template <class T>
  void add(std::span<const T> actual) {
    const std::size_t count = std::min(actual.size(), expected.size() - std::min(seen, expected.size()));
    // Locals, so the loop neither stores its sums nor reloads `expected` each element.
    const double* want = expected.data() + seen;
    double chunk_diff = 0, chunk_norm = 0;
    std::size_t not_finite = 0;  // poison left behind, or a NaN computed
    for (std::size_t i = 0; i < count; ++i) {
      const double value = actual[i];
      not_finite += !std::isfinite(value);
      const double d = value - want[i];
      chunk_diff += d * d;
      chunk_norm += want[i] * want[i];
    }
    diff += chunk_diff;
    norm += chunk_norm;
    finite = finite && not_finite == 0;
    seen += actual.size();
  }
  double relative() const {
    if (seen != expected.size() || !finite) return INFINITY;
    return norm == 0 ? std::sqrt(diff) : std::sqrt(diff / norm);
  }
};

}  // namespace

CheckResult KernelDef::verify(const Params& params, const Buffers& buffers) const {
  if (check_) return check_(params, buffers);
  if (!reference_) return {false, "kernel " + name_ + " has neither a reference nor a check"};
  CheckResult result{true, ""};
  for (const auto& [output, expected] : reference_(params, buffers)) {
    // Every element type is compared as its values: f16 and bf16 widened, integers exactly
    // representable, blocks decoded by their format.
    L2Error l2{expected};
    for_each_value_chunk(buffers[output], [&](std::span<const double> actual) { l2.add(actual); });
    const double error = l2.relative();
    char text[160];
    std::snprintf(text, sizeof text, "%s: rel L2 error %.3g (tolerance %.3g)", output.c_str(), error,
                  tolerance_);
    if (!result.detail.empty()) result.detail += "; ";
    result.detail += text;
    if (!(error <= tolerance_)) result.ok = false;
  }
  return result;
}

bool KernelDef::is_valid(const Params& params, Backend backend) const {
  return !valid_ || valid_(params, backend);
}

void KernelDef::run_cpu(const Params& params, Buffers& buffers) const {
  if (!cpu_) throw Error("kernel " + name_ + " has no cpu implementation");
  cpu_(params, buffers);
}

VulkanPlan KernelDef::vulkan_plan(const Params& params, const DeviceLimits& limits) const {
  if (!vulkan_) throw Error("kernel " + name_ + " has no vulkan implementation");
  return vulkan_(params, limits);
}

double relative_l2_error(std::span<const float> actual, const std::vector<double>& expected) {
  L2Error l2{expected};
  l2.add(actual);
  return l2.relative();
}

}  // namespace perfgate
