#pragma once
// The `perfgate` command. A project with its own kernels links perfgate::harness and its kernel
// files into an executable whose main() calls this (perfgate_add_executable generates it).
namespace perfgate {

// The project a perfgate command belongs to. Empty fields fall back to perfgate's own.
struct Project {
  // Holds the default baselines/ folder, and thresholds/ when it has one.
  const char* dir = ".";
  // The thresholds used when `dir` has no thresholds/ folder: the installed defaults.
  const char* thresholds_dir = "";
  // The project's own build, recorded in every fingerprint: its kernels are compiled so, not
  // as perfgate's library was.
  const char* build_type = "";
  const char* compiler = "";
  const char* build_flags = "";
  // perfgate's own command: copy and fma_peak are cases of its suite. A project's own command
  // carries them to measure `% peak` only (perfgate/registry.h).
  bool peak_kernels_in_suite = false;
};

int perfgate_main(int argc, char** argv, const Project& project);
// perfgate's own command: the project is its source tree.
int perfgate_main(int argc, char** argv, const char* project_dir);

}  // namespace perfgate
