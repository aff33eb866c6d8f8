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

// The environment every child perfgate starts gets (run_self, a `serve` side, a build command,
// git): this process's, less the webhook's secrets (notify/config.h kWebhookSecretVariables) and
// the parent entry below; `extra` entries appended. Pointers into `environ` and `extra`: made
// before a fork, used until the exec.
std::vector<char*> child_environment(const std::vector<std::string>& extra = {});

// The variable naming the parent a child perfgate ends with, and that entry of an environment.
inline constexpr const char* kParentPidVariable = "PERFGATE_PARENT_PID";
std::string parent_pid_entry();

// Called first by every perfgate command: where this process is a child perfgate started (its
// environment names the parent), it ends when that parent does, or at once if it already has.
// A parent killed alone (timeout(1), a cancelled CI step) would otherwise leave its child
// measuring, and holding the device lock, for the rest of its run.
void end_with_parent();

}  // namespace perfgate
