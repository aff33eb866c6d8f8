#pragma once
// A kernel definition: its parameter axes, cost model, float64 reference, correctness check and
// one implementation per backend. Kernels never see a raw Vulkan object: a Vulkan
// implementation is a plan of dispatches that the harness records, times and checks.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "perfgate/buffers.h"
#include "perfgate/params.h"

namespace perfgate {

enum class Backend { cpu, vulkan };
std::string_view to_string(Backend backend);
Backend backend_from_string(std::string_view name);  // throws Error on an unknown name

// Bytes that must cross device memory and floating-point operations, per dispatch.
struct Cost {
  double bytes_read = 0;
  double bytes_written = 0;
  double flops = 0;
  // The flops run on matrix units (f16 tensor cores, or what stands in for them): judged against
  // the tensor peak, not fma_peak's.
  bool matrix_flops = false;
  double bytes() const { return bytes_read + bytes_written; }
};

// Every axis is a count or a size: positive, and at most 2^32 unless its kernel says otherwise
// (KernelDef::axis_limits), so that products of two axes stay within 64 bits.
inline constexpr std::int64_t kAxisMaxValue = std::int64_t{1} << 32;

struct Axis {
  std::string name;
  std::vector<std::int64_t> values;
  std::vector<Backend> backends;  // empty: the axis applies to every backend
  std::int64_t min_value = 1;
  std::int64_t max_value = kAxisMaxValue;
  bool applies_to(Backend backend) const;
};

// What a device offers kernels to pick their configuration by (subgroup size is never assumed:
// llvmpipe has 8, NVIDIA 32).
struct DeviceLimits {
  std::uint32_t subgroup_size = 1;
  bool subgroup_arithmetic = false;  // and shuffles: the suite's subgroup shaders use both
  bool integer_dot_product = false;  // OpSDot of packed 8-bit vectors (DP4A on NVIDIA)
  // 16x16x16 f16 x f16 + f32 cooperative matrices on subgroups (tensor cores), with float16
  // arithmetic and 16-bit storage buffers: GL_NV_cooperative_matrix shaders may run.
  bool cooperative_matrix_f16 = false;
  // The same through VK_KHR_cooperative_matrix (GL_KHR_cooperative_matrix shaders), and through
  // VK_NV_cooperative_matrix2 at workgroup scope with flexible dimensions and tensor addressing
  // (GL_NV_cooperative_matrix2 shaders, workgroups of at most matrix_workgroup_max_invocations).
  // Both are Vulkan 1.3 shaders that only a newer glslc compiles (ctest/PerfgateShaderCompiler.cmake).
  bool cooperative_matrix_khr = false;
  bool cooperative_matrix_workgroup = false;
  std::uint32_t matrix_workgroup_max_invocations = 0;
  std::uint32_t max_workgroup_invocations = 128;
  std::uint32_t max_shared_memory_bytes = 16384;
  std::uint64_t max_storage_buffer_range = 1ull << 27;
  std::uint64_t max_allocation_bytes = 1ull << 30;
  std::uint32_t compute_units = 1;  // CPU threads, or an estimate of GPU multiprocessors
};

// A buffer bound at any descriptor set and binding, whole or a byte range of it (a real engine
// binds sub-ranges of its allocations). The offset must be a multiple of the device's
// minStorageBufferOffsetAlignment (16 or less on common devices).
struct BufferBinding {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  std::string buffer;
  std::uint64_t offset_bytes = 0;
  std::uint64_t range_bytes = 0;  // 0: to the end of the buffer
};

// The type of a specialization constant, as the shader declares it (`layout(constant_id = 1)
// const float scale = 1.0;`). `word` is an untyped 32-bit word (Dispatch::specialization),
// given to any 32-bit constant unchecked.
enum class ConstantType { word, int32, uint32, float32, boolean };
std::string_view to_string(ConstantType type);  // GLSL's names: int, uint, float, bool; "word"

template <class>
inline constexpr bool kNoSuchConstantType = false;

// One specialization constant's value: its constant_id, type and 32 bits (a bool as VkBool32).
struct SpecConstant {
  std::uint32_t id = 0;
  ConstantType type = ConstantType::word;
  std::uint32_t bits = 0;

  // int32_t, uint32_t, float or bool: the C++ type says which GLSL type the shader must declare
  // (write 64u for a uint constant, 1.5f for a float one).
  template <class T>
  static SpecConstant of(std::uint32_t id, T value) {
    if constexpr (std::is_same_v<T, bool>)
      return {id, ConstantType::boolean, value ? 1u : 0u};
    else if constexpr (std::is_same_v<T, float>)
      return {id, ConstantType::float32, std::bit_cast<std::uint32_t>(value)};
    else if constexpr (std::is_same_v<T, std::int32_t>)
      return {id, ConstantType::int32, static_cast<std::uint32_t>(value)};
    else if constexpr (std::is_same_v<T, std::uint32_t>)
      return {id, ConstantType::uint32, value};
    else
      static_assert(kNoSuchConstantType<T>,
                    "a specialization constant is int32_t, uint32_t, float or bool (64-bit constants are not "
                    "supported): convert the value to one of them");
  }
  // The value as text for messages: 3, 64u, 1.5f, true, or the word in hex.
  std::string value_text() const;
};

struct Dispatch {
  std::string shader;                         // its embedded name, e.g. "copy/copy"
  std::vector<std::string> bindings;          // binding i of set 0 is the whole buffer bindings[i]
  std::vector<std::uint32_t> specialization;  // untyped: constant_id i = specialization[i]; by
                                              // the suite's convention 0 is local_size_x
  std::vector<std::uint32_t> push_constants;  // 32-bit words, offset 0 (see push())
  std::array<std::uint32_t, 3> groups{1, 1, 1};
  std::string stage;                    // component name in breakdowns (default: shader)
  std::vector<BufferBinding> bound;     // more bindings: other sets, offsets and ranges
  std::vector<SpecConstant> constants;  // typed, by constant_id (see constant())

  // A typed specialization constant, checked against the shader's before anything runs: a
  // constant_id the shader does not declare, or one it declares with another type, is an error.
  template <class T>
  Dispatch& constant(std::uint32_t id, T value) {
    constants.push_back(SpecConstant::of(id, value));
    return *this;
  }
  // `specialization` (as words, constant_id i) followed by `constants`: what the pipeline gets.
  std::vector<SpecConstant> all_constants() const;

  // The push-constant block from a C++ struct laid out as the shader's block (std430 rules):
  // its bytes, padded with zeros to whole 32-bit words.
  template <class Block>
  Dispatch& push(const Block& block) {
    static_assert(std::is_trivially_copyable_v<Block>, "a push-constant block is copied byte for byte");
    push_constants.assign((sizeof(Block) + 3) / 4, 0u);
    std::memcpy(push_constants.data(), &block, sizeof(Block));
    return *this;
  }
  // `bindings` (set 0, whole buffers) followed by `bound`.
  std::vector<BufferBinding> all_bindings() const;
};

// Dispatches run in order with a compute-to-compute memory barrier between them. One timed
// "dispatch" of the case is the whole plan.
struct VulkanPlan {
  std::vector<Dispatch> dispatches;
};

// The reference values of each checked output buffer, computed in float64.
using Expected = std::vector<std::pair<std::string, std::vector<double>>>;

// One output's reference values, moved in: a braced `Expected{{name, values}}` copies them out
// of its initializer list, 256 MiB for a 2^25-element output.
inline Expected expect(std::string output, std::vector<double> values) {
  Expected expected;
  expected.emplace_back(std::move(output), std::move(values));
  return expected;
}

struct CheckResult {
  bool ok = false;
  std::string detail;  // what was compared and the error found
};

using Rng = std::mt19937_64;

class KernelDef {
 public:
  using BuffersFn = std::function<std::vector<BufferSpec>(const Params&)>;
  using FillFn = std::function<void(const Params&, Buffers&, Rng&)>;
  using CostFn = std::function<Cost(const Params&)>;
  using ReferenceFn = std::function<Expected(const Params&, const Buffers&)>;
  using CheckFn = std::function<CheckResult(const Params&, const Buffers&)>;
  using CpuFn = std::function<void(const Params&, Buffers&)>;
  using VulkanFn = std::function<VulkanPlan(const Params&, const DeviceLimits&)>;
  using ValidFn = std::function<bool(const Params&, Backend)>;

  explicit KernelDef(std::string name) : name_(std::move(name)) {}

  KernelDef& describe(std::string text) {
    description_ = std::move(text);
    return *this;
  }
  KernelDef& axis(std::string name, std::vector<std::int64_t> values, std::vector<Backend> backends = {});
  // The values an axis (every axis of that name) accepts from --axis and case ids.
  KernelDef& axis_limits(const std::string& name, std::int64_t min_value, std::int64_t max_value);
  KernelDef& buffers(BuffersFn fn) {
    buffers_ = std::move(fn);
    return *this;
  }
  // Optional: the default fills f32/f16 inputs uniformly in [-1, 1] and integers with random bits.
  KernelDef& fill(FillFn fn) {
    fill_ = std::move(fn);
    return *this;
  }
  KernelDef& cost(CostFn fn) {
    cost_ = std::move(fn);
    return *this;
  }
  // Relative L2 error ||out - ref|| / ||ref|| allowed per output, and why (the arithmetic): the
  // reason is asked for so that it stands beside the number where a reader looks; not stored.
  KernelDef& reference(ReferenceFn fn, double rel_l2_tolerance, std::string_view why);
  // A custom check replaces the reference comparison (e.g. sampling: the chosen token set).
  KernelDef& check(CheckFn fn) {
    check_ = std::move(fn);
    return *this;
  }
  KernelDef& cpu(CpuFn fn) {
    cpu_ = std::move(fn);
    return *this;
  }
  KernelDef& vulkan(VulkanFn fn) {
    vulkan_ = std::move(fn);
    return *this;
  }
  // Skips parameter points that make no sense for a backend (e.g. a tile larger than the matrix).
  KernelDef& valid(ValidFn fn) {
    valid_ = std::move(fn);
    return *this;
  }
  // In the default suite (perfgate run with no selection); every kernel is by default.
  KernelDef& in_default_suite(bool yes) {
    default_suite_ = yes;
    return *this;
  }

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::vector<Axis>& axes() const { return axes_; }
  bool has_backend(Backend backend) const;
  bool default_suite() const { return default_suite_; }
  const std::string& source_hash() const { return source_hash_; }
  void set_source_hash(std::string hash) { source_hash_ = std::move(hash); }
  // One of the peak kernels every perfgate command carries (copy, fma_peak); set at registration.
  bool peak() const { return peak_; }
  void set_peak(bool yes) { peak_ = yes; }

  std::vector<BufferSpec> buffer_specs(const Params& params) const;
  void fill_inputs(const Params& params, Buffers& buffers, Rng& rng) const;
  Cost cost_of(const Params& params) const;
  CheckResult verify(const Params& params, const Buffers& buffers) const;
  bool is_valid(const Params& params, Backend backend) const;
  void run_cpu(const Params& params, Buffers& buffers) const;
  VulkanPlan vulkan_plan(const Params& params, const DeviceLimits& limits) const;
  double tolerance() const { return tolerance_; }

 private:
  std::string name_;
  std::string description_;
  std::vector<Axis> axes_;
  BuffersFn buffers_;
  FillFn fill_;
  CostFn cost_;
  ReferenceFn reference_;
  double tolerance_ = 0;
  CheckFn check_;
  CpuFn cpu_;
  VulkanFn vulkan_;
  ValidFn valid_;
  bool default_suite_ = true;
  bool peak_ = false;
  std::string source_hash_;
};

// Relative L2 error of actual against expected; infinite when actual holds a NaN or Inf.
double relative_l2_error(std::span<const float> actual, const std::vector<double>& expected);

}  // namespace perfgate
