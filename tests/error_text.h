#pragma once
// The message of the perfgate::Error a call throws, or "" when it throws none: tests check
// that a refusal names its file, key or value.
#include <functional>
#include <string>

#include "perfgate/error.h"

namespace perfgate::testing {

inline std::string error_text(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace perfgate::testing
