#pragma once
// The `perfgate` command. A project with its own kernels links perfgate::harness and its kernel
// files into an executable whose main() calls this (perfgate_add_executable does it).
namespace perfgate {
int perfgate_main(int argc, char** argv);
}
