#pragma once
// What the host is: CPU model, threads, caches, compiler. Part of every fingerprint.
#include <cstdint>
#include <string>
#include <string_view>

#include "perfgate/result.h"

namespace perfgate {

// Lowercase, runs of other characters become one '-', no leading or trailing '-'.
std::string slugify(std::string_view text);

std::string cpu_model();
int cpu_threads();
std::uint64_t cpu_last_level_cache_bytes();
std::uint64_t host_memory_bytes();  // physical memory; 0 when unknown
// The build whose kernels run: perfgate's own unless the command's project says otherwise
// (perfgate_main sets it once, before any fingerprint is taken). Empty fields keep perfgate's.
struct BuildIdentity {
  std::string compiler;
  std::string build_type;
  std::string build_flags;
};
void set_build_identity(const BuildIdentity& identity);
// A fingerprint with the host's CPU and the build's compiler, type and flags filled in.
Fingerprint host_fingerprint();
std::string perfgate_version();

}  // namespace perfgate
