// The host CPU as a device: buffers are host memory, a dispatch is one call of the kernel's
// CPU function (which parallelises itself with OpenMP), time is the steady clock.
#include <chrono>
#include <cstring>

#include "core/sysinfo.h"
#include "measure/device.h"

namespace perfgate {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ns(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

class CpuCase final : public PreparedCase {
 public:
  CpuCase(const KernelDef& kernel, const Params& params, const Buffers& host, std::uint64_t cache_bytes)
      : kernel_(kernel),
        params_(params),
        buffers_(host),
        flush_bytes_(static_cast<std::size_t>(2 * cache_bytes)) {}

  void upload(const Buffers& host) override {
    for (std::size_t i = 0; i < host.all().size(); ++i) {
      const HostBuffer& from = host.all()[i];
      HostBuffer& to = buffers_.all()[i];
      if (from.spec.role == BufferRole::input)
        std::memcpy(to.data.data(), from.data.data(), from.data.size());
      else  // all-ones bytes: NaN in f32 and f16, so an unwritten element never passes
        std::memset(to.data.data(), 0xff, to.data.size());
    }
  }

  void run_once() override { kernel_.run_cpu(params_, buffers_); }

  void download(Buffers& host) override {
    for (std::size_t i = 0; i < host.all().size(); ++i)
      if (host.all()[i].spec.role != BufferRole::input) host.all()[i].data = buffers_.all()[i].data;
  }

  BatchTiming time_batch(int dispatches, bool cold) override {
    BatchTiming timing{dispatches, 0, 0, {}};
    if (!cold) {
      auto start = Clock::now();
      for (int i = 0; i < dispatches; ++i) kernel_.run_cpu(params_, buffers_);
      timing.host_ns = elapsed_ns(start);
    } else {
      for (int i = 0; i < dispatches; ++i) {
        flush_cache();
        auto start = Clock::now();
        kernel_.run_cpu(params_, buffers_);
        timing.host_ns += elapsed_ns(start);
      }
    }
    timing.device_ns = timing.host_ns;
    timing.stage_device_ns = {timing.device_ns};
    return timing;
  }

  std::vector<std::string> stage_names() const override { return {kernel_.name()}; }

 private:
  // Writing a buffer twice the last-level cache evicts the kernel's working set. Made on the first
  // cold dispatch: a VM reports its host's cache (260 MiB here), and zeroing 520 MiB for every
  // case cost 0.25 s a case on the 2-core CI machine, cold samples or not.
  void flush_cache() {
    if (flush_.empty()) flush_.resize(flush_bytes_);
    ++flush_value_;
#pragma omp parallel for
    for (std::size_t i = 0; i < flush_.size(); i += 64) flush_[i] = flush_value_;
  }

  const KernelDef& kernel_;
  Params params_;
  Buffers buffers_;
  std::size_t flush_bytes_;
  std::vector<unsigned char> flush_;
  unsigned char flush_value_ = 0;
};

class CpuDevice final : public Device {
 public:
  CpuDevice() : fingerprint_(host_fingerprint()), cache_bytes_(cpu_last_level_cache_bytes()) {
    limits_.compute_units = static_cast<std::uint32_t>(fingerprint_.cpu_threads);
    limits_.max_allocation_bytes = ~0ull;
    limits_.max_storage_buffer_range = ~0ull;
  }

  Backend backend() const override { return Backend::cpu; }
  const Fingerprint& fingerprint() const override { return fingerprint_; }
  const DeviceLimits& limits() const override { return limits_; }
  std::uint64_t last_level_cache_bytes() const override { return cache_bytes_; }

  std::optional<std::string> unsupported(const KernelDef& kernel, const Params&,
                                         const std::vector<BufferSpec>&) const override {
    if (!kernel.has_backend(Backend::cpu)) return "kernel " + kernel.name() + " has no cpu code";
    return std::nullopt;
  }

  std::unique_ptr<PreparedCase> prepare(const KernelDef& kernel, const Params& params,
                                        const Buffers& host) override {
    return std::make_unique<CpuCase>(kernel, params, host, cache_bytes_);
  }

 private:
  Fingerprint fingerprint_;
  DeviceLimits limits_;
  std::uint64_t cache_bytes_;
};

}  // namespace

std::unique_ptr<Device> open_cpu_device() { return std::make_unique<CpuDevice>(); }

}  // namespace perfgate
