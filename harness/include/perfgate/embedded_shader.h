#pragma once
// What a shader embedded by perfgate_add_kernels (ctest/PerfgateKernels.cmake) calls at static
// initialisation. A header of its own, with nothing else in it: each shader's generated unit
// includes it, and one unit per shader must compile in a fraction of a second.
#include <cstddef>
#include <cstdint>

namespace perfgate {

// SPIR-V embedded at build time from kernels/<folder>/<stem>.comp under "<folder>/<stem>".
bool register_shader(const char* name, const std::uint32_t* words, std::size_t word_count);
// A shader this build could not compile (ctest/PerfgateShaderCompiler.cmake: no glslc knows its
// extensions), registered in its place with why; a case that dispatches it is skipped saying so.
bool register_left_out_shader(const char* name, const char* why);

}  // namespace perfgate
