#include "measure/gpu_clocks.h"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace perfgate {

// The few NVML entry points used, resolved by name from libnvidia-ml.so.1 (its C ABI: every
// call returns 0 on success; a device handle is an opaque pointer; clock types SM = 1, MEM = 2).
struct GpuClocks::Library {
  using Init = int (*)();
  using HandleByUuid = int (*)(const char*, void**);
  using ClockOf = int (*)(void*, int, unsigned*);
  Init init = nullptr;
  HandleByUuid handle_by_uuid = nullptr;
  ClockOf clock_info = nullptr;
  ClockOf default_app_clock = nullptr;
  ClockOf max_clock_info = nullptr;

  static const Library* load() {
    static const std::unique_ptr<Library> library = [] {
      void* so = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
      if (!so) return std::unique_ptr<Library>();
      auto lib = std::make_unique<Library>();
      lib->init = reinterpret_cast<Init>(dlsym(so, "nvmlInit_v2"));
      lib->handle_by_uuid = reinterpret_cast<HandleByUuid>(dlsym(so, "nvmlDeviceGetHandleByUUID"));
      lib->clock_info = reinterpret_cast<ClockOf>(dlsym(so, "nvmlDeviceGetClockInfo"));
      lib->default_app_clock = reinterpret_cast<ClockOf>(dlsym(so, "nvmlDeviceGetDefaultApplicationsClock"));
      lib->max_clock_info = reinterpret_cast<ClockOf>(dlsym(so, "nvmlDeviceGetMaxClockInfo"));
      if (!lib->init || !lib->handle_by_uuid || !lib->clock_info || lib->init() != 0)
        return std::unique_ptr<Library>();
      return lib;
    }();
    return library.get();
  }
};

namespace {

constexpr int kSmClock = 1, kMemoryClock = 2;
constexpr std::uint32_t kNvidiaVendorId = 0x10de;

// Vulkan's 16-byte device UUID as hex (the fingerprint's form) -> NVML's "GPU-8-4-4-4-12" form.
std::string nvml_uuid(const std::string& hex) {
  if (hex.size() != 32) return "";
  return "GPU-" + hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

}  // namespace

const GpuClocks* GpuClocks::for_device(const Fingerprint& fingerprint) {
  if (fingerprint.vendor_id != kNvidiaVendorId) return nullptr;
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<GpuClocks>> opened;
  const std::lock_guard lock(mutex);
  auto [it, added] = opened.try_emplace(fingerprint.device_uuid);
  if (!added) return it->second.get();
  const Library* lib = Library::load();
  const std::string uuid = nvml_uuid(fingerprint.device_uuid);
  void* device = nullptr;
  if (!lib || uuid.empty() || lib->handle_by_uuid(uuid.c_str(), &device) != 0) return nullptr;
  unsigned mhz = 0;
  if (!(lib->default_app_clock && lib->default_app_clock(device, kSmClock, &mhz) == 0 && mhz > 0) &&
      !(lib->max_clock_info && lib->max_clock_info(device, kSmClock, &mhz) == 0))
    mhz = 0;
  it->second.reset(new GpuClocks(lib, device, mhz));
  return it->second.get();
}

ClockReading GpuClocks::read() const {
  ClockReading r;
  unsigned mhz = 0;
  if (library_->clock_info(device_, kSmClock, &mhz) == 0) r.sm_mhz = mhz;
  if (library_->clock_info(device_, kMemoryClock, &mhz) == 0) r.memory_mhz = mhz;
  return r;
}

}  // namespace perfgate
