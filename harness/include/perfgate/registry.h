#pragma once
// Kernels and shaders register themselves at static initialisation, so adding a kernel is one
// new file in kernels/ and nothing else.
//
//   PERFGATE_KERNEL(copy) {
//     return perfgate::KernelDef("copy").describe("b = a").axis("n", {1 << 24}) ... ;
//   }
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/embedded_shader.h"
#include "perfgate/kernel.h"

#ifndef PERFGATE_SOURCE_HASH
#define PERFGATE_SOURCE_HASH ""  // set per kernel source by perfgate_add_kernels()
#endif
#ifndef PERFGATE_KERNEL_IS_PEAK
#define PERFGATE_KERNEL_IS_PEAK false  // true for copy and fma_peak (perfgate::peak_kernels)
#endif

namespace perfgate {

bool register_kernel(KernelDef (*define)(), const char* source_hash, bool peak = false);
const std::vector<KernelDef>& registered_kernels();  // sorted by name
const KernelDef* find_kernel(std::string_view name);
// Whether the peak kernels (KernelDef::peak) are cases of this command's suite: in perfgate's own
// command they are; in a project's own they measure `% peak` only, and are cases only where a
// selection names them. perfgate_main sets it.
void set_peak_kernels_in_suite(bool yes);
bool peak_kernels_in_suite();

// The shaders embedded at build time (register_shader, perfgate/embedded_shader.h) and those a
// build left out (register_left_out_shader).
std::span<const std::uint32_t> find_shader(std::string_view name);  // empty when unknown
std::vector<std::string> shader_names();
std::string left_out_shader_reason(std::string_view name);            // "" unless left out
std::vector<std::pair<std::string, std::string>> left_out_shaders();  // (name, why), by name

}  // namespace perfgate

#define PERFGATE_KERNEL(ident)                                                     \
  static ::perfgate::KernelDef perfgate_define_##ident();                          \
  [[maybe_unused]] static const bool perfgate_registered_##ident =                 \
      ::perfgate::register_kernel(&perfgate_define_##ident, PERFGATE_SOURCE_HASH, PERFGATE_KERNEL_IS_PEAK); \
  static ::perfgate::KernelDef perfgate_define_##ident()
