#pragma once
// The `perfgate` command. A project with its own kernels links perfgate::harness and its kernel
// files into an executable whose main() calls this (perfgate_add_executable does it).
namespace perfgate {
// `project_dir` holds the default baselines/ and thresholds/ folders (the --baselines and
// --thresholds defaults); perfgate's own command passes its source tree.
int perfgate_main(int argc, char** argv, const char* project_dir);
}  // namespace perfgate
