#include "vulkan/context.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/no_device.h"
#include "core/sysinfo.h"
#include "perfgate/error.h"
#include "vulkan/vk_error.h"

namespace perfgate::vk {
namespace {

bool has_extension(const std::vector<VkExtensionProperties>& all, const char* name) {
  return std::any_of(all.begin(), all.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::vector<VkExtensionProperties> instance_extensions() {
  std::uint32_t count = 0;
  check(vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr),
        "vkEnumerateInstanceExtensionProperties");
  std::vector<VkExtensionProperties> all(count);
  check(vkEnumerateInstanceExtensionProperties(nullptr, &count, all.data()),
        "vkEnumerateInstanceExtensionProperties");
  all.resize(count);
  return all;
}

std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice device) {
  std::uint32_t count = 0;
  check(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr),
        "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> all(count);
  check(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, all.data()),
        "vkEnumerateDeviceExtensionProperties");
  all.resize(count);
  return all;
}

VkInstance create_instance() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "perfgate";
  app.pEngineName = "perfgate";
  // The most perfgate uses (the matrix shaders are Vulkan 1.3); 1.2 devices still serve.
  app.apiVersion = VK_API_VERSION_1_3;

  VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  create.pApplicationInfo = &app;
  std::vector<const char*> extensions;
  // Portability drivers (MoltenVK) are only enumerated when asked for.
  std::vector<VkExtensionProperties> available;
  try {
    available = instance_extensions();
  } catch (const Error& e) {
    throw NoDevice{std::string("no usable Vulkan loader: ") + e.what()};
  }
  if (has_extension(available, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    create.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }
  create.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  create.ppEnabledExtensionNames = extensions.data();

  VkInstance instance = VK_NULL_HANDLE;
  const VkResult result = vkCreateInstance(&create, nullptr, &instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED)
    throw NoDevice{"no Vulkan driver (ICD) found: vkCreateInstance returned " +
                   std::string(result_name(result))};
  check(result, "vkCreateInstance(Vulkan 1.3)");
  return instance;
}

// Tensor cores through VK_NV_cooperative_matrix (the extension Debian 12's glslang compiles for):
// the shaders need 16x16x16 f16 x f16 + f32 -> f32 on subgroups, float16 arithmetic and 16-bit
// storage buffers.
bool has_f16_cooperative_matrix(VkInstance instance, VkPhysicalDevice handle,
                                const std::vector<VkExtensionProperties>& extensions) {
  if (!has_extension(extensions, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME)) return false;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV matrix{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
  VkPhysicalDevice16BitStorageFeatures storage{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features float16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &matrix;
  matrix.pNext = &storage;
  storage.pNext = &float16;
  vkGetPhysicalDeviceFeatures2(handle, &features);
  if (!matrix.cooperativeMatrix || !storage.storageBuffer16BitAccess || !float16.shaderFloat16) return false;
  auto properties_of = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
  if (!properties_of) return false;
  std::uint32_t count = 0;
  if (properties_of(handle, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkCooperativeMatrixPropertiesNV> all(count, {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV});
  if (properties_of(handle, &count, all.data()) != VK_SUCCESS) return false;
  return std::any_of(all.begin(), all.end(), [](const VkCooperativeMatrixPropertiesNV& p) {
    return p.MSize == 16 && p.NSize == 16 && p.KSize == 16 && p.AType == VK_COMPONENT_TYPE_FLOAT16_NV &&
           p.BType == VK_COMPONENT_TYPE_FLOAT16_NV && p.CType == VK_COMPONENT_TYPE_FLOAT32_NV &&
           p.DType == VK_COMPONENT_TYPE_FLOAT32_NV && p.scope == VK_SCOPE_SUBGROUP_NV;
  });
}

PhysicalDeviceInfo query(VkInstance instance, VkPhysicalDevice handle, int index) {
  PhysicalDeviceInfo info;
  info.handle = handle;
  info.index = index;
  vkGetPhysicalDeviceProperties(handle, &info.properties);
  const auto extensions = device_extensions(handle);
  const bool vulkan12 = info.properties.apiVersion >= VK_API_VERSION_1_2;

  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  info.subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  info.maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  info.driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nvidia{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceShaderCorePropertiesAMD amd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
  properties.pNext = &info.subgroup;
  info.subgroup.pNext = &info.maintenance3;
  void** tail = &info.maintenance3.pNext;
  if (vulkan12 || has_extension(extensions, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME)) {
    *tail = &info.driver;
    tail = &info.driver.pNext;
    info.has_driver_properties = true;
  }
  const bool has_nvidia = has_extension(extensions, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  if (has_nvidia) {
    *tail = &nvidia;
    tail = &nvidia.pNext;
  }
  const bool has_amd = has_extension(extensions, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
  if (has_amd) {
    *tail = &amd;
    tail = &amd.pNext;
  }
  vkGetPhysicalDeviceProperties2(handle, &properties);
  // The chain pointed into this function's locals and the info is copied: cut it.
  info.subgroup.pNext = nullptr;
  info.maintenance3.pNext = nullptr;
  info.driver.pNext = nullptr;
  if (has_nvidia) info.multiprocessors = nvidia.shaderSMCount;
  if (has_amd)
    info.multiprocessors =
        amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;

  if (vulkan12) {
    VkPhysicalDeviceVulkan11Features features11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceShaderIntegerDotProductFeaturesKHR dot{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.pNext = &features11;
    features11.pNext = &features12;
    const bool has_dot = has_extension(extensions, VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME);
    if (has_dot) features12.pNext = &dot;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statistics{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    const bool has_statistics =
        has_extension(extensions, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (has_statistics) {
      statistics.pNext = features12.pNext;
      features12.pNext = &statistics;
    }
    vkGetPhysicalDeviceFeatures2(handle, &features);
    info.host_query_reset = features12.hostQueryReset == VK_TRUE;
    info.integer_dot_product = has_dot && dot.shaderIntegerDotProduct == VK_TRUE;
    info.pipeline_statistics = has_statistics && statistics.pipelineExecutableInfo == VK_TRUE;
    DeviceFeatures& f = info.features;
    f.shader_int16 = features.features.shaderInt16 == VK_TRUE;
    f.shader_int64 = features.features.shaderInt64 == VK_TRUE;
    f.shader_float64 = features.features.shaderFloat64 == VK_TRUE;
    f.storage_buffer_16bit = features11.storageBuffer16BitAccess == VK_TRUE;
    f.uniform_and_storage_buffer_16bit = features11.uniformAndStorageBuffer16BitAccess == VK_TRUE;
    f.storage_push_constant_16 = features11.storagePushConstant16 == VK_TRUE;
    f.shader_int8 = features12.shaderInt8 == VK_TRUE;
    f.shader_float16 = features12.shaderFloat16 == VK_TRUE;
    f.storage_buffer_8bit = features12.storageBuffer8BitAccess == VK_TRUE;
    f.uniform_and_storage_buffer_8bit = features12.uniformAndStorageBuffer8BitAccess == VK_TRUE;
    f.storage_push_constant_8 = features12.storagePushConstant8 == VK_TRUE;
    f.integer_dot_product = info.integer_dot_product;
    f.vulkan_memory_model = features12.vulkanMemoryModel == VK_TRUE;
    info.cooperative_matrix_f16 = has_f16_cooperative_matrix(instance, handle, extensions);
    info.matrix = query_matrix_features(instance, handle, info.properties.apiVersion, extensions);
    f.cooperative_matrix_khr = info.matrix.khr_f16;
    f.cooperative_matrix_workgroup = info.matrix.workgroup_f16;
    f.bfloat16_matrix = info.matrix.workgroup_bf16;
  }
  if (info.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)
    info.features.subgroup_operations = info.subgroup.supportedOperations;
  vkGetPhysicalDeviceMemoryProperties(handle, &info.memory);

  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(handle, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(handle, &family_count, families.data());
  for (std::uint32_t i = 0; i < family_count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && families[i].timestampValidBits > 0) {
      info.compute_family = i;
      info.timestamp_valid_bits = families[i].timestampValidBits;
      break;
    }
  }
  return info;
}

}  // namespace

int kind_rank(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::discrete_gpu: return 0;
    case DeviceKind::integrated_gpu: return 1;
    case DeviceKind::virtual_gpu: return 2;
    case DeviceKind::cpu: return 3;
    default: return 4;
  }
}

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string device_list(const std::vector<PhysicalDeviceInfo>& all) {
  std::string text;
  for (const auto& d : all) {
    if (!text.empty()) text += ", ";
    text += std::to_string(d.index) + ": " + d.name();
  }
  return text.empty() ? "none" : text;
}

std::vector<PhysicalDeviceInfo> query_all(VkInstance instance) {
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> handles(count);
  check(vkEnumeratePhysicalDevices(instance, &count, handles.data()), "vkEnumeratePhysicalDevices");
  std::vector<PhysicalDeviceInfo> all;
  for (std::uint32_t i = 0; i < count; ++i) all.push_back(query(instance, handles[i], static_cast<int>(i)));
  return all;
}

std::string device_uuid(VkPhysicalDevice handle) {
  // VkPhysicalDeviceIDProperties is core since 1.1; every usable device has 1.2.
  VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &ids;
  vkGetPhysicalDeviceProperties2(handle, &properties);
  return uuid_hex(ids.deviceUUID, VK_UUID_SIZE);
}

const PhysicalDeviceInfo& select(const std::vector<PhysicalDeviceInfo>& all, const std::string& selector) {
  if (all.empty()) throw NoDevice{"no Vulkan physical device found"};
  const bool is_index = !selector.empty() && std::all_of(selector.begin(), selector.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (is_index) {
    const auto index = std::stoul(selector);
    if (index >= all.size())
      throw NoDevice{"no Vulkan device " + selector + " (devices: " + device_list(all) + ")"};
    const auto& chosen = all[index];
    if (auto why = chosen.unusable_reason(); !why.empty())
      throw NoDevice{"Vulkan device " + selector + " (" + chosen.name() + ") " + why};
    return chosen;
  }
  const PhysicalDeviceInfo* best = nullptr;
  std::string why_not;
  for (const auto& d : all) {
    if (!selector.empty() && lower(d.name()).find(lower(selector)) == std::string::npos) continue;
    if (auto why = d.unusable_reason(); !why.empty()) {
      why_not += "; " + d.name() + " " + why;
      continue;
    }
    if (!best || kind_rank(d.kind()) < kind_rank(best->kind())) best = &d;
  }
  if (!best) {
    throw NoDevice{(selector.empty() ? std::string("no usable Vulkan device")
                                     : "no usable Vulkan device matches '" + selector + "'") +
                   " (devices: " + device_list(all) + ")" + why_not};
  }
  return *best;
}

}  // namespace

DeviceKind PhysicalDeviceInfo::kind() const {
  switch (properties.deviceType) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DeviceKind::discrete_gpu;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DeviceKind::integrated_gpu;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DeviceKind::virtual_gpu;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DeviceKind::cpu;
    default: return DeviceKind::other;
  }
}

std::string PhysicalDeviceInfo::unusable_reason() const {
  if (properties.apiVersion < VK_API_VERSION_1_2)
    return "supports only Vulkan " + decode_api_version(properties.apiVersion) + " (1.2 needed)";
  if (!host_query_reset) return "lacks the hostQueryReset feature";
  if (compute_family == UINT32_MAX) return "has no compute queue with timestamps";
  if (properties.limits.timestampPeriod <= 0) return "reports no timestamp period";
  return "";
}

std::vector<DeviceListing> list_devices() {
  VkInstance instance = create_instance();
  std::vector<DeviceListing> listings;
  try {
    for (const auto& d : query_all(instance))
      listings.push_back({d.index, d.name(), device_uuid(d.handle), d.kind(), d.unusable_reason()});
  } catch (...) {
    vkDestroyInstance(instance, nullptr);
    throw;
  }
  vkDestroyInstance(instance, nullptr);
  return listings;
}

Context::Context(const std::string& selector) {
  instance_ = create_instance();
  try {
    info_ = select(query_all(instance_), selector);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = info_.compute_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;

    // Every feature a shader's capabilities may need (device_features.h), where the device has it.
    const DeviceFeatures& f = info_.features;
    auto on = [](bool present) { return present ? VK_TRUE : VK_FALSE; };
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.features.shaderInt16 = on(f.shader_int16);
    features.features.shaderInt64 = on(f.shader_int64);
    features.features.shaderFloat64 = on(f.shader_float64);
    VkPhysicalDeviceVulkan11Features features11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    features11.storageBuffer16BitAccess = on(f.storage_buffer_16bit);
    features11.uniformAndStorageBuffer16BitAccess = on(f.uniform_and_storage_buffer_16bit);
    features11.storagePushConstant16 = on(f.storage_push_constant_16);
    VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    features12.hostQueryReset = VK_TRUE;
    features12.shaderInt8 = on(f.shader_int8);
    features12.shaderFloat16 = on(f.shader_float16);
    features12.storageBuffer8BitAccess = on(f.storage_buffer_8bit);
    features12.uniformAndStorageBuffer8BitAccess = on(f.uniform_and_storage_buffer_8bit);
    features12.storagePushConstant8 = on(f.storage_push_constant_8);
    features12.vulkanMemoryModel = on(f.vulkan_memory_model);
    features.pNext = &features11;
    features11.pNext = &features12;
    std::vector<const char*> extensions;
    // Packed 8-bit dot products (OpSDot), for the shaders of 8-bit activations.
    VkPhysicalDeviceShaderIntegerDotProductFeaturesKHR dot{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES_KHR};
    if (info_.integer_dot_product) {
      extensions.push_back(VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME);
      dot.shaderIntegerDotProduct = VK_TRUE;
      features12.pNext = &dot;
    }
    // Tensor cores for the f16 matrix shaders, only where the device has them.
    // (16-bit storage goes in features11: the spec forbids its own struct beside that one.)
    VkPhysicalDeviceCooperativeMatrixFeaturesNV matrix{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    if (info_.cooperative_matrix_f16) {
      extensions.push_back(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
      matrix.cooperativeMatrix = VK_TRUE;
      features11.storageBuffer16BitAccess = VK_TRUE;
      features12.shaderFloat16 = VK_TRUE;
      matrix.pNext = features12.pNext;
      features12.pNext = &matrix;
    }
    // Tensor cores through the newer extensions (subgroup and workgroup scope), where offered.
    const MatrixFeatureChain matrix_chain(info_.matrix, extensions, &features12.pNext);
    // The driver's statistics of each compiled shader (registers, spills), where offered.
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statistics{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    if (info_.pipeline_statistics) {
      extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
      statistics.pipelineExecutableInfo = VK_TRUE;
      statistics.pNext = features12.pNext;
      features12.pNext = &statistics;
    }
    // The spec requires enabling VK_KHR_portability_subset wherever a device offers it.
    if (has_extension(device_extensions(info_.handle), "VK_KHR_portability_subset"))
      extensions.push_back("VK_KHR_portability_subset");

    VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    create.pNext = &features;
    create.queueCreateInfoCount = 1;
    create.pQueueCreateInfos = &queue;
    create.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    create.ppEnabledExtensionNames = extensions.data();
    check(vkCreateDevice(info_.handle, &create, nullptr, &device_), "vkCreateDevice(" + info_.name() + ")");
    vkGetDeviceQueue(device_, info_.compute_family, 0, &queue_);
  } catch (...) {
    if (device_) vkDestroyDevice(device_, nullptr);
    vkDestroyInstance(instance_, nullptr);
    throw;
  }
}

Context::~Context() {
  vkDeviceWaitIdle(device_);
  vkDestroyDevice(device_, nullptr);
  vkDestroyInstance(instance_, nullptr);
}

DeviceLimits Context::kernel_limits() const {
  const auto& l = limits();
  DeviceLimits d;
  d.subgroup_size = std::max(1u, info_.subgroup.subgroupSize);
  constexpr VkSubgroupFeatureFlags used = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                          VK_SUBGROUP_FEATURE_SHUFFLE_BIT |
                                          VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
  d.subgroup_arithmetic = (info_.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                          (info_.subgroup.supportedOperations & used) == used;
  d.integer_dot_product = info_.integer_dot_product;
  d.cooperative_matrix_f16 = info_.cooperative_matrix_f16;
  d.cooperative_matrix_khr = info_.matrix.khr_f16;
  d.cooperative_matrix_workgroup = info_.matrix.workgroup_f16;
  d.matrix_workgroup_max_invocations = info_.matrix.workgroup_max_invocations;
  d.max_workgroup_invocations = std::min(l.maxComputeWorkGroupInvocations, l.maxComputeWorkGroupSize[0]);
  d.max_shared_memory_bytes = l.maxComputeSharedMemorySize;
  d.max_storage_buffer_range = l.maxStorageBufferRange;
  d.max_allocation_bytes = info_.maintenance3.maxMemoryAllocationSize;
  if (info_.multiprocessors > 0) {
    d.compute_units = info_.multiprocessors;
  } else if (info_.kind() == DeviceKind::cpu) {
    d.compute_units = static_cast<std::uint32_t>(cpu_threads());  // llvmpipe: a thread per core
  } else {
    d.compute_units = info_.kind() == DeviceKind::discrete_gpu ? 64 : 16;  // unknown: a guess
  }
  return d;
}

Fingerprint Context::fingerprint() const {
  Fingerprint f = host_fingerprint();
  const auto& p = info_.properties;
  f.backend = "vulkan";
  f.device_name = p.deviceName;
  f.machine_id = vulkan_machine_id(f.device_name, info_.kind() == DeviceKind::cpu, cpu_vector_isa_tag());
  f.vendor_id = p.vendorID;
  f.device_id = p.deviceID;
  f.driver_version = info_.has_driver_properties && info_.driver.driverInfo[0] != '\0'
                         ? std::string(info_.driver.driverInfo)
                         : decode_driver_version(p.vendorID, p.driverVersion);
  f.api_version = decode_api_version(p.apiVersion);
  f.device_uuid = device_uuid(info_.handle);
  return f;
}

std::uint64_t Context::last_level_cache_bytes() const {
  return estimate_last_level_cache_bytes(info_.properties.vendorID, info_.name(), info_.kind(),
                                         cpu_last_level_cache_bytes());
}

std::uint64_t Context::device_local_bytes() const {
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < info_.memory.memoryHeapCount; ++i)
    if (info_.memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      total += info_.memory.memoryHeaps[i].size;
  return total;
}

std::uint32_t Context::memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags preferred) const {
  const auto& m = info_.memory;
  for (VkMemoryPropertyFlags wanted : {required | preferred, required}) {
    for (std::uint32_t i = 0; i < m.memoryTypeCount; ++i)
      if ((type_bits & (1u << i)) && (m.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  }
  throw Error("no memory type with flags 0x" + std::to_string(required) + " on " + info_.name());
}

}  // namespace perfgate::vk
