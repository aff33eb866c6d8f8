#include "core/sysinfo.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <utility>

#include "core/content_digest.h"

namespace perfgate {

std::string slugify(std::string_view text) {
  std::string slug;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto start = line.find_first_not_of(' ', colon + 1);
        return start == std::string::npos ? "" : line.substr(start);
      }
    }
  }
  return "unknown-cpu";
}

int cpu_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

// The kernel's view of the last-level cache (sysfs), which is what this CPU's cores share:
// sysconf reports the whole package's L3 on some virtual machines (384 MiB for 12 x 32 MiB;
// 508 MiB on a 2-vCPU sandbox without sysfs cache entries). Without sysfs, sysconf's figure is
// bounded by 32 MiB per 8 of our threads (a core complex's share), so a 256 MiB working set is
// never taken for cache-resident and the cold flush stays proportionate.
std::uint64_t cpu_last_level_cache_bytes() {
  std::uint64_t best = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (!(in >> text) || text.empty()) continue;
    std::uint64_t value = std::strtoull(text.c_str(), nullptr, 10);
    if (text.back() == 'K') value <<= 10;
    if (text.back() == 'M') value <<= 20;
    best = std::max(best, value);
  }
  if (best > 0) return best;
  const std::uint64_t bound = (32ull << 20) * std::max(1, cpu_threads() / 8);
  const long size = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return size > 0 ? std::min(static_cast<std::uint64_t>(size), bound) : bound;
}

// "AMD EPYC 7B13 64-Core Processor" -> "amd-epyc-7b13"; "Intel(R) Xeon(R) CPU @ 2.20GHz" -> "intel-xeon"
static std::string cpu_slug(std::string model) {
  for (const char* noise : {"(R)", "(r)", "(TM)", "(tm)"}) {
    for (auto at = model.find(noise); at != std::string::npos; at = model.find(noise))
      model.erase(at, std::string_view(noise).size());
  }
  if (auto at = model.find('@'); at != std::string::npos) model.erase(at);
  std::string slug = slugify(model);
  for (const char* tail : {"-processor", "-cpu"})
    if (slug.size() > std::string_view(tail).size() && slug.ends_with(tail))
      slug.erase(slug.size() - std::string_view(tail).size());
  if (auto core = slug.find("-core"); core != std::string::npos) {  // drop "-64-core"
    auto dash = slug.rfind('-', core - 1);
    slug.erase(dash == std::string::npos ? core : dash);
  }
  return slug;
}

// "cpu family" and "model" of /proc/cpuinfo's first processor; -1 where it has none (off x86).
static std::pair<int, int> cpu_family_and_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  int family = -1, model = -1;
  const auto value = [&](std::string_view key, int& out) {
    if (line.rfind(key, 0) != 0 || out >= 0) return;
    const auto colon = line.find(':');
    if (colon != std::string::npos && line.find_first_not_of(" \t", key.size()) == colon)
      out = std::atoi(line.c_str() + colon + 1);
  };
  while ((family < 0 || model < 0) && std::getline(in, line)) {
    value("cpu family", family);
    value("model", model);
  }
  return {family, model};
}

std::string cpu_design_tag(std::string_view model_name, int family, int model) {
  if (family < 0 || model < 0) return "";
  if (std::any_of(model_name.begin(), model_name.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return "";
  return "f" + std::to_string(family) + "m" + std::to_string(model);
}

std::string cpu_design_tag() {
  const auto [family, model] = cpu_family_and_model();
  return cpu_design_tag(cpu_model(), family, model);
}

std::string cpu_vector_isa_tag() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "";
  if (__builtin_cpu_supports("avx2")) return "avx2";
  if (__builtin_cpu_supports("avx")) return "avx";
  return "sse";
#else
  return "";
#endif
}

std::string cpu_machine_id(std::string_view model, int threads, std::string_view isa_tag,
                           std::string_view design_tag) {
  std::string id = "cpu-" + cpu_slug(std::string(model));
  if (!design_tag.empty()) id += "-" + std::string(design_tag);
  if (!isa_tag.empty()) id += "-" + std::string(isa_tag);
  return id + "-" + std::to_string(threads) + "t";
}

static BuildIdentity& build_identity() {
  static BuildIdentity identity{PERFGATE_COMPILER, PERFGATE_BUILD_TYPE, PERFGATE_BUILD_FLAGS};
  return identity;
}

void set_build_identity(const BuildIdentity& identity) {
  BuildIdentity& current = build_identity();
  if (!identity.compiler.empty()) current.compiler = identity.compiler;
  if (!identity.build_type.empty()) current.build_type = identity.build_type;
  if (!identity.build_flags.empty()) current.build_flags = identity.build_flags;
}

std::string host_id_of(std::string_view named, std::string_view machine_id, std::string_view hostname) {
  std::string identity;
  if (!named.empty())
    identity = "named " + std::string(named);
  else
    identity = std::string(!machine_id.empty() ? machine_id : hostname);
  if (identity.empty()) return "";
  const std::string digest = sha256_digest("perfgate host " + identity);
  return digest.substr(digest.find(':') + 1, 12);
}

HostId this_host() {
  const char* env = std::getenv("PERFGATE_HOST_ID");
  // Trimmed: "runner-1\n" (a name read from a file by a CI script) is the host "runner-1".
  std::string named = env ? env : "";
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!named.empty() && blank(named.back())) named.pop_back();
  while (!named.empty() && blank(named.front())) named.erase(named.begin());
  std::string machine_id;
  if (std::ifstream in("/etc/machine-id"); in) std::getline(in, machine_id);
  char hostname[256] = {};
  if (::gethostname(hostname, sizeof hostname - 1) != 0) hostname[0] = 0;
  const char* from = !named.empty()        ? "PERFGATE_HOST_ID"
                     : !machine_id.empty() ? "/etc/machine-id"
                                           : "the hostname";
  return {host_id_of(named, machine_id, hostname), from};
}

Fingerprint host_fingerprint() {
  Fingerprint f;
  f.cpu_model = cpu_model();
  f.cpu_threads = cpu_threads();
  f.host_id = this_host().id;
  f.compiler = build_identity().compiler;
  f.build_type = build_identity().build_type;
  f.build_flags = build_identity().build_flags;
  f.backend = "cpu";
  f.device_name = f.cpu_model;
  f.machine_id = cpu_machine_id(f.cpu_model, f.cpu_threads, cpu_vector_isa_tag(), cpu_design_tag());
  return f;
}

std::string perfgate_version() { return PERFGATE_VERSION; }

std::uint64_t host_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_bytes = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_bytes > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_bytes)
             : 0;
}

}  // namespace perfgate
