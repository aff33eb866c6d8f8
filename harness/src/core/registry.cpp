#include "perfgate/registry.h"

#include <algorithm>
#include <map>

#include "perfgate/error.h"

namespace perfgate {
namespace {

// Function-local statics: registration runs during static initialisation of other files.
std::vector<KernelDef>& kernels() {
  static std::vector<KernelDef> all;
  return all;
}

std::map<std::string, std::span<const std::uint32_t>, std::less<>>& shaders() {
  static std::map<std::string, std::span<const std::uint32_t>, std::less<>> all;
  return all;
}

// Shaders this build left out, with why (no compiler for their extensions).
std::map<std::string, std::string, std::less<>>& left_out() {
  static std::map<std::string, std::string, std::less<>> all;
  return all;
}

}  // namespace

bool register_kernel(KernelDef (*define)(), const char* source_hash, bool peak) {
  KernelDef def = define();
  def.set_source_hash(source_hash);
  def.set_peak(peak);
  auto& all = kernels();
  if (std::any_of(all.begin(), all.end(), [&](const KernelDef& k) { return k.name() == def.name(); }))
    throw Error("kernel '" + def.name() + "' is registered twice");
  auto at = std::lower_bound(all.begin(), all.end(), def.name(),
                             [](const KernelDef& k, const std::string& n) { return k.name() < n; });
  all.insert(at, std::move(def));
  return true;
}

const std::vector<KernelDef>& registered_kernels() { return kernels(); }

static bool& peak_in_suite() {
  static bool yes = true;
  return yes;
}
void set_peak_kernels_in_suite(bool yes) { peak_in_suite() = yes; }
bool peak_kernels_in_suite() { return peak_in_suite(); }

const KernelDef* find_kernel(std::string_view name) {
  for (const auto& k : kernels())
    if (k.name() == name) return &k;
  return nullptr;
}

bool register_shader(const char* name, const std::uint32_t* words, std::size_t word_count) {
  shaders()[name] = std::span<const std::uint32_t>(words, word_count);
  return true;
}

std::span<const std::uint32_t> find_shader(std::string_view name) {
  auto it = shaders().find(name);
  return it == shaders().end() ? std::span<const std::uint32_t>() : it->second;
}

std::vector<std::string> shader_names() {
  std::vector<std::string> names;
  for (const auto& entry : shaders()) names.push_back(entry.first);
  return names;
}

bool register_left_out_shader(const char* name, const char* why) {
  left_out()[name] = why;
  return true;
}

std::string left_out_shader_reason(std::string_view name) {
  auto it = left_out().find(name);
  return it == left_out().end() ? std::string() : it->second;
}

std::vector<std::pair<std::string, std::string>> left_out_shaders() {
  return {left_out().begin(), left_out().end()};
}

}  // namespace perfgate
