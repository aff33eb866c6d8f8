#pragma once
// Runs this same perfgate binary as a child process (no shell, so arguments need no quoting):
// `baseline propose` measures each run in a fresh process, `check` confirms a regression in one
// (`perfgate measure`), `baseline approve` asks `list --machine-id` which machine this is. The
// child is the image this process runs, even where a rebuild has since replaced the file.
#include <string>
#include <vector>

namespace perfgate {

struct ChildResult {
  int exit_code = 0;  // 128 + signal when the child was killed
  std::string stdout_text;
};

// `arguments` follow the executable; the child's stderr is this process's stderr. Its stdout is
// returned when `capture_stdout`, else discarded. Throws Error when it cannot be started.
ChildResult run_self(const std::vector<std::string>& arguments, bool capture_stdout);

}  // namespace perfgate
