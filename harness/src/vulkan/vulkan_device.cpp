// The Vulkan backend as the measuring layer sees it: a Device over a Context, whose cases are
// VulkanCases.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>

#include "measure/device.h"
#include "perfgate/registry.h"
#include "vulkan/context.h"
#include "vulkan/vk_error.h"
#include "vulkan/vulkan_case.h"

namespace perfgate {
namespace {

class VulkanDevice final : public Device {
 public:
  explicit VulkanDevice(std::shared_ptr<vk::Context> context)
      : context_(std::move(context)),
        fingerprint_(context_->fingerprint()),
        limits_(context_->kernel_limits()),
        cache_bytes_(context_->last_level_cache_bytes()) {}

  Backend backend() const override { return Backend::vulkan; }
  const Fingerprint& fingerprint() const override { return fingerprint_; }
  const DeviceLimits& limits() const override { return limits_; }
  std::uint64_t last_level_cache_bytes() const override { return cache_bytes_; }

  bool is_gpu() const override {
    const auto kind = context_->info().kind();
    return kind == vk::DeviceKind::discrete_gpu || kind == vk::DeviceKind::integrated_gpu;
  }

  std::optional<std::string> unsupported(const KernelDef& kernel, const Params& params,
                                         const std::vector<BufferSpec>& specs) const override {
    if (!kernel.has_backend(Backend::vulkan)) return "kernel " + kernel.name() + " has no Vulkan plan";
    const std::string device = " on " + fingerprint_.device_name;
    // A shader needing a feature this device lacks is a skip, not an error: its SPIR-V says so.
    for (const Dispatch& d : kernel.vulkan_plan(params, limits_).dispatches) {
      const auto spirv = find_shader(d.shader);
      if (const std::string why = left_out_shader_reason(d.shader); spirv.empty() && !why.empty())
        return "shader " + d.shader + " is not in this build: " + why;
      if (spirv.empty()) continue;  // VulkanCase names the missing shader
      const auto missing = vk::missing_features(vk::reflect_shader(d.shader, spirv), context_->info().features);
      if (!missing.empty()) {
        std::string names;
        for (const auto& name : missing) names += (names.empty() ? "" : ", ") + name;
        return "device lacks feature " + names + " (shader " + d.shader + ")" + device;
      }
    }
    std::uint64_t total = 0;
    for (const auto& spec : specs) {
      const std::uint64_t bytes = vk::padded_bytes(spec.bytes());
      total += bytes;
      if (bytes > limits_.max_storage_buffer_range)
        return "buffer " + spec.name + " needs " + vk::size_text(bytes) + ", over maxStorageBufferRange (" +
               vk::size_text(limits_.max_storage_buffer_range) + ")" + device;
      if (limits_.max_allocation_bytes > 0 && bytes > limits_.max_allocation_bytes)
        return "buffer " + spec.name + " needs " + vk::size_text(bytes) + ", over maxMemoryAllocationSize (" +
               vk::size_text(limits_.max_allocation_bytes) + ")" + device;
    }
    const std::uint64_t memory = context_->device_local_bytes();
    if (memory > 0 && total > memory / 10 * 9)
      return "buffers need " + vk::size_text(total) + ", device-local memory holds " + vk::size_text(memory) +
             device;
    return std::nullopt;
  }

  std::unique_ptr<PreparedCase> prepare(const KernelDef& kernel, const Params& params,
                                        const Buffers& host) override {
    std::vector<BufferSpec> specs;
    for (const auto& buffer : host.all()) specs.push_back(buffer.spec);
    return std::make_unique<vk::VulkanCase>(context_, kernel, params, specs, limits_, cache_bytes_);
  }

 private:
  std::shared_ptr<vk::Context> context_;
  Fingerprint fingerprint_;
  DeviceLimits limits_;
  std::uint64_t cache_bytes_ = 0;
};

}  // namespace

std::unique_ptr<Device> open_vulkan_device(const std::string& selector) {
  return std::make_unique<VulkanDevice>(std::make_shared<vk::Context>(selector));
}

std::vector<GpuListing> list_vulkan_gpus(const std::string& name_filter) {
  const auto lower = [](std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  };
  std::vector<vk::DeviceListing> usable;
  for (auto& d : vk::list_devices())
    if (d.unusable_reason.empty() && lower(d.name).find(lower(name_filter)) != std::string::npos)
      usable.push_back(std::move(d));
  int best_rank = INT32_MAX;
  for (const auto& d : usable) best_rank = std::min(best_rank, vk::kind_rank(d.kind));
  std::vector<GpuListing> gpus;
  for (const auto& d : usable)
    if (vk::kind_rank(d.kind) == best_rank)
      gpus.push_back({d.index, d.name,
                      vk::vulkan_machine_id(d.name, d.kind == vk::DeviceKind::cpu, cpu_vector_isa_tag()),
                      d.device_uuid, d.kind == vk::DeviceKind::cpu});
  return gpus;
}

}  // namespace perfgate
