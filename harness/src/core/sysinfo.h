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
// The vector instruction set the CPU kernels compile to (-march=native) where it is narrower than
// AVX-512: "avx2", "avx" or "sse" on such an x86 CPU, "" with AVX-512 or off x86. Cloud VMs name
// their CPU "AMD EPYC" on a Zen 3 (AVX2) and a Zen 4 (AVX-512) alike, and there the compute-bound
// CPU kernels ran 10-30x apart (docs/performance.md, "Two CPUs behind one name").
std::string cpu_vector_isa_tag();
// The CPU's design where its model name does not say it: "f<family>m<model>" of cpuid (as
// /proc/cpuinfo gives them) for a name without a model number, "" for a named model or off x86.
// Cloud VMs name a Zen 4 and a Zen 5 "AMD EPYC" alike, with AVX-512 both, and there the CPU
// suite's cases ran from 0.23x to 1.9x apart and the old sampling pass 12x apart across three
// hosts (docs/performance.md, "One name, three CPU designs"): no level of such a class places a
// 2x slowdown.
std::string cpu_design_tag(std::string_view model_name, int family, int model);
std::string cpu_design_tag();  // this CPU's
// "cpu-<model slug>[-<design tag>][-<isa tag>]-<threads>t": a CPU machine's id (host_fingerprint).
std::string cpu_machine_id(std::string_view model, int threads, std::string_view isa_tag,
                           std::string_view design_tag = "");
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
// A host's id: 12 hex digits of a digest (the id itself, which some tools treat as a secret, is
// never written) of the name the environment gives it (PERFGATE_HOST_ID), else of
// /etc/machine-id, else of the hostname; "" when all three are empty. Clones of one VM or
// container image share /etc/machine-id (the 2-vCPU CI VMs and the H200 hosts this project was
// measured on all did), so a CI whose runners are such clones names each one, or its hosts are
// one host to the gate. A name never digests to a machine-id's id.
std::string host_id_of(std::string_view named, std::string_view machine_id, std::string_view hostname);
// This host's id (host_id_of) and what it is a digest of: "PERFGATE_HOST_ID", "/etc/machine-id"
// or "the hostname".
struct HostId {
  std::string id;
  std::string from;
};
HostId this_host();
// A fingerprint with the host's CPU and id and the build's compiler, type and flags filled in.
Fingerprint host_fingerprint();
std::string perfgate_version();

}  // namespace perfgate
