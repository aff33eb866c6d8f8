#pragma once
// One case on a Vulkan device: its buffers (device-local, padded to whole vec4s so shaders may
// load the last partial vec4 and mask it), one pipeline per dispatch of the kernel's plan, and
// the recorded batches that time it.
#include <memory>
#include <string>
#include <vector>

#include "measure/device.h"
#include "vulkan/buffer.h"
#include "vulkan/context.h"
#include "vulkan/pipeline.h"
#include "vulkan/query_pool.h"
#include "vulkan/sequence.h"
#include "vulkan/staging.h"

namespace perfgate::vk {

// Device buffers are this many bytes longer than a multiple of 16 at most.
inline std::uint64_t padded_bytes(std::uint64_t bytes) { return (bytes + 15) & ~std::uint64_t{15}; }

class VulkanCase final : public PreparedCase {
 public:
  VulkanCase(std::shared_ptr<Context> context, const KernelDef& kernel, const Params& params,
             const std::vector<BufferSpec>& specs, const DeviceLimits& limits,
             std::uint64_t last_level_cache_bytes);

  void upload(const Buffers& host) override;
  void run_once() override;
  void download(Buffers& host) override;
  BatchTiming time_batch(int dispatches, bool cold) override;
  std::vector<std::string> stage_names() const override;
  double encode_ns_per_dispatch() const override { return encode_ns_per_dispatch_; }
  std::vector<std::array<std::uint32_t, 3>> local_sizes() const override { return local_sizes_; }
  std::vector<std::vector<ShaderStatistic>> shader_statistics() const override;

  const VulkanPlan& plan() const { return plan_; }

 private:
  void record_plan(bool stage_timestamps, std::uint32_t& query);
  void record_batch(int dispatches, bool cold);
  std::uint32_t stages() const { return static_cast<std::uint32_t>(plan_.dispatches.size()); }

  std::shared_ptr<Context> context_;  // declared first: destroyed after everything it made
  std::string kernel_name_;
  std::vector<BufferSpec> specs_;
  std::vector<std::unique_ptr<Buffer>> buffers_;  // in the order of specs_
  VulkanPlan plan_;
  std::vector<std::unique_ptr<Pipeline>> pipelines_;
  std::unique_ptr<Staging> staging_;
  std::uint64_t flush_bytes_ = 0;
  std::unique_ptr<Buffer> flush_;  // written before each cold dispatch to evict the cache
  Sequence sequence_;
  std::unique_ptr<TimestampPool> timestamps_;
  // What sequence_ holds now, so a batch of the same shape is submitted again, not re-recorded.
  int recorded_dispatches_ = 0;
  bool recorded_cold_ = false;
  int recorded_stage_reps_ = 0;  // hot: repetitions of the plan with a timestamp per dispatch
  std::uint32_t recorded_queries_ = 0;
  double encode_ns_per_dispatch_ = 0;
  std::vector<std::array<std::uint32_t, 3>> local_sizes_;  // per dispatch, from the SPIR-V
};

}  // namespace perfgate::vk
