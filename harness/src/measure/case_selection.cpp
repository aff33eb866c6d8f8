#include "measure/case_selection.h"

#include <fnmatch.h>

#include <charconv>
#include <limits>
#include <set>

#include "perfgate/error.h"
#include "perfgate/registry.h"
#include "perfgate/result.h"

namespace perfgate {
namespace {

bool glob_match(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

void check_limits(const KernelDef& kernel, const Axis& axis, std::int64_t value, const std::string& where) {
  if (value < axis.min_value || value > axis.max_value)
    throw Error(where + ": axis " + axis.name + "=" + std::to_string(value) + " is out of range for kernel " +
                kernel.name() + " (allowed: " + std::to_string(axis.min_value) + " to " +
                std::to_string(axis.max_value) + ")");
}

// Kernels multiply their axes (rows x columns, m x k) into element counts and byte sizes; a
// point whose values multiply past 2^62 would wrap around in that arithmetic.
void check_product(const std::vector<std::pair<std::string, std::int64_t>>& values,
                   const std::string& where) {
  std::int64_t product = 1;
  for (const auto& [name, value] : values)
    if (__builtin_mul_overflow(product, value, &product) || product > (std::int64_t{1} << 62))
      throw Error(where + ": the axis values multiply past 2^62 (too large to measure)");
}

// The cartesian product of the kernel's axes for a backend, with overrides applied.
std::vector<Params> points(const KernelDef& kernel, Backend backend,
                           const std::map<std::string, std::vector<std::int64_t>>& overrides) {
  std::vector<std::vector<std::pair<std::string, std::int64_t>>> partial{{}};
  for (const Axis& axis : kernel.axes()) {
    if (!axis.applies_to(backend)) continue;
    auto it = overrides.find(axis.name);
    const auto& values = it != overrides.end() ? it->second : axis.values;
    if (it != overrides.end())
      for (std::int64_t v : values)
        check_limits(kernel, axis, v, "--axis " + axis.name + "=" + std::to_string(v));
    std::vector<std::vector<std::pair<std::string, std::int64_t>>> next;
    for (const auto& prefix : partial)
      for (std::int64_t v : values) {
        next.push_back(prefix);
        next.back().emplace_back(axis.name, v);
      }
    partial = std::move(next);
  }
  std::vector<Params> result;
  for (auto& values : partial) {
    check_product(values, "--axis (kernel " + kernel.name() + ")");
    Params p(std::move(values));
    if (kernel.is_valid(p, backend)) result.push_back(std::move(p));
  }
  return result;
}

// A range that produces more points than this is a typo (x2 read as +2), not a sweep.
constexpr std::size_t kMaxRangePoints = 4096;

std::int64_t parse_value(const std::string& text, const std::string& option) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [rest, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range)
    throw Error("--axis " + option + ": '" + text + "' is too large (at most 2^63 - 1)");
  if (ec != std::errc() || rest == text.data())
    throw Error("--axis " + option + ": '" + text + "' is not an integer");
  const std::string suffix(rest, end);
  int shift = 0;
  if (suffix == "k" || suffix == "K")
    shift = 10;
  else if (suffix == "M")
    shift = 20;
  else if (suffix == "G")
    shift = 30;
  else if (!suffix.empty())
    throw Error("--axis " + option + ": '" + text + "' has an unknown suffix");
  if (value > (std::numeric_limits<std::int64_t>::max() >> shift) ||
      value < (std::numeric_limits<std::int64_t>::min() >> shift))
    throw Error("--axis " + option + ": '" + text + "' is too large (at most 2^63 - 1)");
  return value * (std::int64_t{1} << shift);
}

// first, first*by, ... up to last (multiply) or first, first+by, ... (add), without overflow.
std::vector<std::int64_t> range_values(std::int64_t first, std::int64_t last, std::int64_t by, bool multiply,
                                       const std::string& option, const std::string& item) {
  std::vector<std::int64_t> values;
  for (std::int64_t v = first;;) {
    values.push_back(v);
    if (values.size() > kMaxRangePoints)
      throw Error("--axis " + option + ": range '" + item + "' gives more than " +
                  std::to_string(kMaxRangePoints) + " values");
    std::int64_t next = 0;
    const bool overflow =
        multiply ? __builtin_mul_overflow(v, by, &next) : __builtin_add_overflow(v, by, &next);
    if (overflow || next > last) break;
    v = next;
  }
  return values;
}

}  // namespace

std::pair<std::string, std::vector<std::int64_t>> parse_axis_option(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw Error("--axis '" + text + "': expected NAME=V1,V2,...");
  std::string name = text.substr(0, eq);
  std::vector<std::int64_t> values;
  std::string list = text.substr(eq + 1);
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (auto colon = item.find(':'); colon != std::string::npos) {  // first:last:xF or first:last:+S
      auto colon2 = item.find(':', colon + 1);
      std::int64_t first = parse_value(item.substr(0, colon), text);
      std::int64_t last = parse_value(item.substr(colon + 1, colon2 - colon - 1), text);
      std::string step = colon2 == std::string::npos ? "x2" : item.substr(colon2 + 1);
      bool multiply = step.starts_with('x');
      std::int64_t by = parse_value(step.substr(step[0] == 'x' || step[0] == '+' ? 1 : 0), text);
      if (by <= (multiply ? 1 : 0) || first <= 0 || last < first)
        throw Error("--axis '" + text + "': bad range '" + item + "'");
      for (std::int64_t v : range_values(first, last, by, multiply, text, item)) values.push_back(v);
    } else {
      values.push_back(parse_value(item, text));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return {name, values};
}

// Whether the selection names this kernel: by --kernel, or a case glob that is its name or
// starts with "<name>/".
static bool names_kernel(const Selection& selection, const std::string& name) {
  for (const auto& glob : selection.kernel_globs)
    if (glob == name) return true;
  for (const auto& glob : selection.case_globs)
    if (glob == name || glob.rfind(name + "/", 0) == 0) return true;
  return false;
}

std::vector<CaseSpec> select_cases(const Selection& selection) {
  const std::vector<Backend> all_backends{Backend::cpu, Backend::vulkan};
  const auto& backends = selection.backends.empty() ? all_backends : selection.backends;
  std::set<std::string> axes_used;
  std::vector<bool> glob_used(selection.case_globs.size(), false);
  std::vector<CaseSpec> cases;
  std::vector<bool> kernel_glob_used(selection.kernel_globs.size(), false);

  for (const KernelDef& kernel : registered_kernels()) {
    std::vector<std::size_t> matching;
    for (std::size_t g = 0; g < selection.kernel_globs.size(); ++g)
      if (glob_match(selection.kernel_globs[g], kernel.name())) matching.push_back(g);
    if (!selection.kernel_globs.empty() && matching.empty()) continue;
    if (kernel.peak() && !peak_kernels_in_suite() && !names_kernel(selection, kernel.name())) continue;
    for (std::size_t g : matching) kernel_glob_used[g] = true;
    if (selection.default_suite_only && selection.case_globs.empty() && !kernel.default_suite()) continue;
    for (const Axis& axis : kernel.axes())
      if (selection.axes.count(axis.name)) axes_used.insert(axis.name);
    for (Backend backend : backends) {
      if (!kernel.has_backend(backend)) continue;
      for (Params& p : points(kernel, backend, selection.axes)) {
        std::string id = case_id(kernel.name(), backend, p);
        bool wanted = selection.case_globs.empty();
        for (std::size_t g = 0; g < selection.case_globs.size(); ++g) {
          const std::string& glob = selection.case_globs[g];
          if (glob == kernel.name() || glob_match(glob, id)) {
            wanted = true;
            glob_used[g] = true;
          }
        }
        if (wanted) cases.push_back({&kernel, backend, std::move(p), std::move(id)});
      }
    }
  }
  for (std::size_t g = 0; g < kernel_glob_used.size(); ++g)
    if (!kernel_glob_used[g]) throw Error("--kernel '" + selection.kernel_globs[g] + "' matches no kernel");
  for (std::size_t g = 0; g < glob_used.size(); ++g)
    if (!glob_used[g])
      throw Error("'" + selection.case_globs[g] + "' matches no case (perfgate list shows them)");
  for (const auto& [name, values] : selection.axes)
    if (!axes_used.count(name)) throw Error("--axis " + name + ": no selected kernel has this axis");
  if (cases.empty() && !selection.axes.empty())
    throw Error(
        "the --axis values leave no valid case (each kernel's limits: perfgate list, docs/kernels.md)");
  return cases;
}

CaseSpec parse_case_id(const std::string& id) {
  auto slash1 = id.find('/');
  if (slash1 == std::string::npos) throw Error("case id '" + id + "': expected KERNEL/BACKEND/PARAMS");
  auto slash2 = id.find('/', slash1 + 1);
  std::string kernel_name = id.substr(0, slash1);
  const KernelDef* kernel = find_kernel(kernel_name);
  if (!kernel) throw Error("case id '" + id + "': no kernel named '" + kernel_name + "'");
  Backend backend = backend_from_string(
      id.substr(slash1 + 1, slash2 == std::string::npos ? std::string::npos : slash2 - slash1 - 1));
  if (!kernel->has_backend(backend))
    throw Error("case id '" + id + "': kernel " + kernel_name + " has no " + std::string(to_string(backend)) +
                " code");
  std::map<std::string, std::int64_t> given;
  if (slash2 != std::string::npos) {
    std::string list = id.substr(slash2 + 1);
    std::size_t start = 0;
    while (start < list.size()) {
      auto comma = list.find(',', start);
      std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      auto [name, values] = parse_axis_option(item);
      if (values.size() != 1) throw Error("case id '" + id + "': '" + item + "' is not one value");
      given[name] = values[0];
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return case_of(*kernel, backend, std::move(given), "case id '" + id + "'");
}

CaseSpec case_of(const KernelDef& kernel, Backend backend, std::map<std::string, std::int64_t> given,
                 const std::string& where) {
  std::vector<std::pair<std::string, std::int64_t>> values;
  for (const Axis& axis : kernel.axes()) {
    if (!axis.applies_to(backend)) continue;
    auto it = given.find(axis.name);
    if (it == given.end()) throw Error(where + ": axis '" + axis.name + "' is missing");
    check_limits(kernel, axis, it->second, where);
    values.emplace_back(axis.name, it->second);
    given.erase(it);
  }
  if (!given.empty())
    throw Error(where + ": kernel " + kernel.name() + " has no axis '" + given.begin()->first + "'");
  check_product(values, where);
  Params params(std::move(values));
  if (!kernel.is_valid(params, backend))
    throw Error(where + ": not a valid parameter point of " + kernel.name());
  return {&kernel, backend, params, case_id(kernel.name(), backend, params)};
}

void name_result(CaseResult& result, const CaseSpec& spec) {
  result.id = spec.id;
  result.kernel = spec.kernel->name();
  result.backend = std::string(to_string(spec.backend));
  result.params = spec.params;
}

CaseResult result_for(const CaseSpec& spec) {
  CaseResult result;
  name_result(result, spec);
  return result;
}

double working_set_bytes(const CaseSpec& spec) {
  double bytes = 0;
  for (const auto& b : spec.kernel->buffer_specs(spec.params)) bytes += static_cast<double>(b.bytes());
  return bytes;
}

}  // namespace perfgate
