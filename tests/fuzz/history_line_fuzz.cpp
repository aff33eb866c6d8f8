// The reader of history files (perfgate report --append-history writes them; CI keeps them in a
// git branch anyone with push access can edit): each line checked whole, duplicates named.
#include <sstream>

#include "fuzz_target.h"
#include "store/history.h"

PERFGATE_FUZZ_TARGET([](const std::string& text) {
  std::istringstream in(text);
  perfgate::parse_history(in, "fuzz.jsonl", "fuzz-machine");
})
