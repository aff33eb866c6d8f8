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
// A fingerprint with the host's CPU, compiler and build type filled in.
Fingerprint host_fingerprint();
std::string perfgate_version();

}  // namespace perfgate
