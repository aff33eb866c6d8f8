#pragma once
// Which cases a command runs: kernels x backends x parameter points, narrowed by globs.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/kernel.h"
#include "perfgate/result.h"

namespace perfgate {

struct CaseSpec {
  const KernelDef* kernel = nullptr;
  Backend backend = Backend::cpu;
  Params params;
  std::string id;
};

struct Selection {
  std::vector<std::string> case_globs;                    // fnmatch on case ids, or exact kernel names
  std::vector<std::string> kernel_globs;                  // fnmatch on kernel names, any of them (none = all)
  std::vector<Backend> backends;                          // empty = every backend
  std::map<std::string, std::vector<std::int64_t>> axes;  // --axis overrides
  bool default_suite_only = false;                        // kernels left out of the default suite are skipped
};

// Every case the selection names. Throws Error when a glob, kernel or axis matches nothing.
std::vector<CaseSpec> select_cases(const Selection& selection);

// Parses "kernel/backend/a=1,b=2" into a case of a registered kernel; throws Error naming what
// does not match.
CaseSpec parse_case_id(const std::string& id);

// The case of `kernel` on `backend` at the axis values given (in any order; every axis the
// backend uses, no other), checked like a parsed id; throws Error naming `where` and what is wrong.
CaseSpec case_of(const KernelDef& kernel, Backend backend, std::map<std::string, std::int64_t> values,
                 const std::string& where);

// Writes the case's identity (id, kernel, backend, parameters) into `result`, leaving the rest:
// every result of a case, measured, skipped or failed, is named here.
void name_result(CaseResult& result, const CaseSpec& spec);
// A result naming the case, nothing measured yet.
CaseResult result_for(const CaseSpec& spec);

// The bytes of every buffer the case allocates: what is compared with the last-level cache.
double working_set_bytes(const CaseSpec& spec);

// "--axis n=1,2,4" -> ("n", {1,2,4}); accepts k/M/G suffixes (powers of 2) and ranges "1:1024:x2".
std::pair<std::string, std::vector<std::int64_t>> parse_axis_option(const std::string& text);

}  // namespace perfgate
