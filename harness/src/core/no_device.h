#pragma once
// Thrown by a backend's open function when it has no device here (no driver, no matching
// device): the cases skip (exit 77) rather than fail. An Error, so nothing that lets an Error
// through can lose it.
#include <string>

#include "perfgate/error.h"

namespace perfgate {

struct NoDevice : Error {
  explicit NoDevice(const std::string& why) : Error(why), reason(why) {}
  std::string reason;
};

}  // namespace perfgate
