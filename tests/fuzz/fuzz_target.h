#pragma once
// One libFuzzer entry point per reader of files others can change. A reader may refuse any input
// with perfgate::Error (exit 2 in the CLI); anything else it throws, a crash, a hang or an
// out-of-memory is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "perfgate/error.h"

#define PERFGATE_FUZZ_TARGET(read_text)                                               \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    const std::string text(reinterpret_cast<const char*>(data), size);                \
    try {                                                                             \
      read_text(text);                                                                \
    } catch (const perfgate::Error&) {                                                \
    }                                                                                 \
    return 0;                                                                         \
  }
