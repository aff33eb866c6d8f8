#pragma once
// A child perfgate process spoken to line by line: its stdin and stdout are pipes, its stderr is
// ours. The A/B driver steps two `perfgate serve` children (base and head build) this way. The
// child runs without address-space layout randomisation, so that a build's layout is the same
// in every run rather than a per-process bias.
#include <sys/types.h>

#include <string>
#include <vector>

namespace perfgate {

class ServeProcess {
 public:
  // Starts `executable` with `arguments` (no shell) in this process's environment plus
  // `defaults` ("NAME=VALUE"), each only where the environment does not set NAME already.
  // Throws Error when it cannot be started.
  ServeProcess(const std::string& executable, const std::vector<std::string>& arguments,
               const std::vector<std::string>& defaults = {});
  // Kills a child that is still running (after an error) and reaps it.
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  void send(const std::string& line);
  // The next line without its newline; false at end of output (the child exited or closed it).
  bool read_line(std::string& line);
  // Closes its stdin and waits: its exit code (128 + signal when killed).
  int finish();

 private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffered_;
  std::string executable_;
};

}  // namespace perfgate
