#include "vulkan/vulkan_case.h"

#include <algorithm>
#include <chrono>

#include "perfgate/error.h"
#include "perfgate/registry.h"
#include "vulkan/shader_interface.h"
#include "vulkan/vk_error.h"

namespace perfgate::vk {
namespace {

// Hot batches take a timestamp after every dispatch of multi-dispatch plans for the first
// repetitions only, so a long batch needs no huge query pool; stage times are scaled up.
constexpr std::uint32_t kMaxStageQueries = 4096;
constexpr std::uint64_t kStagingChunkBytes = 64ull << 20;
constexpr std::uint32_t kPoison = 0xffffffffu;  // NaN in f32 (and f16 pairs): never a valid output

std::size_t buffer_index(const std::vector<BufferSpec>& specs, const std::string& kernel,
                         const std::string& name) {
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].name == name) return i;
  std::string known;
  for (const auto& s : specs) known += (known.empty() ? "" : ", ") + s.name;
  throw Error("the Vulkan plan of " + kernel + " binds '" + name + "', which is not one of its buffers (" +
              known + ")");
}

}  // namespace

VulkanCase::VulkanCase(std::shared_ptr<Context> context, const KernelDef& kernel, const Params& params,
                       const std::vector<BufferSpec>& specs, const DeviceLimits& limits,
                       std::uint64_t last_level_cache_bytes)
    : context_(std::move(context)),
      kernel_name_(kernel.name()),
      specs_(specs),
      plan_(kernel.vulkan_plan(params, limits)),
      flush_bytes_(2 * last_level_cache_bytes),
      sequence_(*context_) {
  if (plan_.dispatches.empty()) throw Error("the Vulkan plan of " + kernel_name_ + " has no dispatches");
  std::uint64_t largest = 0;
  for (const auto& spec : specs_) {
    buffers_.push_back(
        std::make_unique<Buffer>(*context_, padded_bytes(spec.bytes()), MemoryUse::device_local, spec.name));
    largest = std::max(largest, spec.bytes());
  }
  staging_ = std::make_unique<Staging>(*context_, std::min(largest, kStagingChunkBytes));

  for (const auto& d : plan_.dispatches) {
    const auto spirv = find_shader(d.shader);
    if (spirv.empty()) {
      std::string known;
      for (const auto& name : shader_names()) known += (known.empty() ? "" : ", ") + name;
      throw Error("shader '" + d.shader + "' of " + kernel_name_ +
                  " is not embedded in this binary (embedded: " + (known.empty() ? "none" : known) + ")");
    }
    const ShaderInterface shader = reflect_shader(d.shader, spirv);
    check_dispatch(kernel_name_, d, shader);
    const std::vector<SpecConstant> constants = d.all_constants();
    local_sizes_.push_back(shader.local_size_with(constants));
    std::vector<PipelineBinding> bindings;
    for (const BufferBinding& b : d.all_bindings())
      bindings.push_back({b.set, b.binding, buffers_[buffer_index(specs_, kernel_name_, b.buffer)].get(),
                          b.offset_bytes, b.range_bytes});
    pipelines_.push_back(std::make_unique<Pipeline>(
        *context_, d.shader, spirv, bindings, constants,
        static_cast<std::uint32_t>(d.push_constants.size() * sizeof(std::uint32_t))));
  }
}

std::vector<std::vector<ShaderStatistic>> VulkanCase::shader_statistics() const {
  std::vector<std::vector<ShaderStatistic>> out;
  for (const auto& p : pipelines_) out.push_back(p->statistics());
  return out;
}

void VulkanCase::upload(const Buffers& host) {
  std::vector<std::size_t> poisoned;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const HostBuffer& from = host[specs_[i].name];
    if (from.spec.role == BufferRole::input)
      staging_->upload(from.data, *buffers_[i]);
    else
      poisoned.push_back(i);
  }
  if (poisoned.empty()) return;
  recorded_dispatches_ = 0;
  sequence_.begin();
  for (std::size_t i : poisoned) sequence_.fill(*buffers_[i], kPoison);
  sequence_.end();
  sequence_.submit_and_wait();
}

void VulkanCase::run_once() {
  recorded_dispatches_ = 0;
  std::uint32_t query = 0;
  sequence_.begin();
  record_plan(false, query);
  sequence_.end();
  sequence_.submit_and_wait();
}

void VulkanCase::download(Buffers& host) {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    HostBuffer& to = host[specs_[i].name];
    if (to.spec.role != BufferRole::input) staging_->download(*buffers_[i], to.data);
  }
}

// The plan's dispatches in order, each followed by a barrier (a timestamp and its barrier when
// `stage_timestamps`), the last one's barrier left to the caller.
void VulkanCase::record_plan(bool stage_timestamps, std::uint32_t& query) {
  for (std::uint32_t s = 0; s < stages(); ++s) {
    const Dispatch& d = plan_.dispatches[s];
    sequence_.dispatch(*pipelines_[s], d.push_constants, d.groups);
    if (stage_timestamps)
      sequence_.write_timestamp(*timestamps_, query++);
    else if (s + 1 < stages())
      sequence_.barrier();
  }
}

void VulkanCase::record_batch(int dispatches, bool cold) {
  const auto n = static_cast<std::uint32_t>(dispatches);
  std::uint32_t queries = 0;
  int stage_reps = 0;
  if (cold) {
    queries = n * (stages() + 1);  // a start, then one after each dispatch of the plan
  } else {
    // One plan dispatch: the batch's two timestamps say it all; more: per-stage timestamps.
    stage_reps = stages() > 1 ? static_cast<int>(std::min(n, kMaxStageQueries / stages())) : 0;
    queries = 2 + static_cast<std::uint32_t>(stage_reps) * stages();
  }
  if (!timestamps_ || timestamps_->count() < queries)
    timestamps_ = std::make_unique<TimestampPool>(*context_, std::max(queries, 64u));
  if (cold && !flush_)
    flush_ = std::make_unique<Buffer>(*context_, flush_bytes_, MemoryUse::device_local, "cache flush");

  std::uint32_t query = 0;
  const auto encode_start = std::chrono::steady_clock::now();
  sequence_.begin();
  if (cold) {
    for (std::uint32_t i = 0; i < n; ++i) {
      sequence_.fill(*flush_, i);
      sequence_.barrier();
      sequence_.write_timestamp(*timestamps_, query++);
      record_plan(true, query);
    }
  } else {
    sequence_.write_timestamp(*timestamps_, query++);
    for (int r = 0; r < dispatches; ++r) {
      record_plan(r < stage_reps, query);
      if (r >= stage_reps && r + 1 < dispatches) sequence_.barrier();
    }
    sequence_.write_timestamp(*timestamps_, query++);
  }
  sequence_.end();
  if (!cold)  // a cold batch also records its cache flushes
    encode_ns_per_dispatch_ =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - encode_start).count() /
        (static_cast<double>(n) * stages());
  recorded_dispatches_ = dispatches;
  recorded_cold_ = cold;
  recorded_stage_reps_ = stage_reps;
  recorded_queries_ = query;
}

BatchTiming VulkanCase::time_batch(int dispatches, bool cold) {
  if (dispatches < 1) throw Error("a batch needs at least one dispatch");
  if (recorded_dispatches_ != dispatches || recorded_cold_ != cold) record_batch(dispatches, cold);
  timestamps_->reset();
  BatchTiming timing;
  timing.dispatches = dispatches;
  timing.host_ns = sequence_.submit_and_wait();
  const auto ticks = timestamps_->ticks(recorded_queries_);
  timing.stage_device_ns.assign(stages(), 0.0);

  if (cold) {
    std::uint32_t q = 0;
    for (int i = 0; i < dispatches; ++i) {
      const std::uint32_t start = q++;
      for (std::uint32_t s = 0; s < stages(); ++s, ++q)
        timing.stage_device_ns[s] += timestamps_->delta_ns(ticks[q - 1], ticks[q]);
      timing.device_ns += timestamps_->delta_ns(ticks[start], ticks[q - 1]);
    }
    return timing;
  }

  const std::uint32_t last = 1 + static_cast<std::uint32_t>(recorded_stage_reps_) * stages();
  timing.device_ns = timestamps_->delta_ns(ticks[0], ticks[last]);
  if (recorded_stage_reps_ == 0) {
    timing.stage_device_ns[0] = timing.device_ns;
  } else {
    const double scale = static_cast<double>(dispatches) / recorded_stage_reps_;
    for (std::uint32_t q = 1; q < last; ++q)
      timing.stage_device_ns[(q - 1) % stages()] += scale * timestamps_->delta_ns(ticks[q - 1], ticks[q]);
  }
  return timing;
}

std::vector<std::string> VulkanCase::stage_names() const {
  std::vector<std::string> names;
  for (const auto& d : plan_.dispatches) names.push_back(d.stage.empty() ? d.shader : d.stage);
  return names;
}

}  // namespace perfgate::vk
