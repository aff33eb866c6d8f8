#!/usr/bin/env bash
# A shader that enables GL_NV_cooperative_matrix2 is compiled by a glslc that knows it, for
# Vulkan 1.3, one that enables GL_EXT_bfloat16 by one that knows that, and beside them a plain
# shader by the system's glslc; where no glslc knows an extension its shaders are left out,
# configure says so, and the build registers the reason in their place (what `perfgate list` and
# the skipped case print). Configure only: no compiler runs a shader here.
# Runs beside other tests: it compiles shaders, measures nothing.
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_BUILD_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/src/k" "$tmp/bin" "$tmp/home"
printf '#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n' > "$tmp/src/k/plain.comp"
printf '#version 450\n#extension GL_KHR_cooperative_matrix : require\n#extension GL_NV_cooperative_matrix2 : require\nlayout(local_size_x = 1) in;\nvoid main() {}\n' \
  > "$tmp/src/k/matrix.comp"
printf '#version 450\n#extension GL_EXT_bfloat16 : require\n#extension GL_NV_cooperative_matrix2 : require\nlayout(local_size_x = 1) in;\nvoid main() {}\n' \
  > "$tmp/src/k/bf16.comp"
printf 'int main() { return 0; }\n' > "$tmp/src/main.cpp"
# Three stand-ins: one that knows every extension (compiles anything), one that knows none of the
# matrix ones (fails on any source that mentions cooperative_matrix2, as Debian 12's does), one
# that knows them but not bfloat16 (as Debian 13's).
printf '#!/bin/sh\n[ "$1" = --version ] && echo "glslang 99.0 (knows all)"\nexit 0\n' > "$tmp/bin/glslc-new"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "glslang 11.13.0 (old)"; exit 0; }\nfor a; do case $a in *.comp) grep -q cooperative_matrix2 "$a" && exit 1;; esac; done\nexit 0\n' \
  > "$tmp/bin/glslc-old"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "glslang 15.1 (no bf16)"; exit 0; }\nfor a; do case $a in *.comp) grep -q bfloat16 "$a" && exit 1;; esac; done\nexit 0\n' \
  > "$tmp/bin/glslc-matrix"
chmod +x "$tmp/bin/glslc-new" "$tmp/bin/glslc-old" "$tmp/bin/glslc-matrix"

configure() {  # configure NAME CMAKE_ARGS...
  local dir="$tmp/$1"; shift
  mkdir -p "$dir"
  cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(matrix LANGUAGES CXX)
include("${KERNELS_CMAKE:-$PERFGATE_SOURCE_DIR/ctest/PerfgateKernels.cmake}")
add_executable(k "$tmp/src/main.cpp")
perfgate_add_kernels(k SHADERS "$tmp/src/k/plain.comp" "$tmp/src/k/matrix.comp" "$tmp/src/k/bf16.comp")
CMAKE
  HOME="$tmp/home" env -u PERFGATE_SHADER_COMPILER_DIR cmake -S "$dir" -B "$dir/build" "$@" > "$dir/out.txt" 2>&1 \
    || { cat "$dir/out.txt"; echo "FAIL: configure $dir refused" >&2; exit 1; }
}

# No glslc knows the extensions: the matrix shader is left out with the reason, the plain one built.
configure none -DPERFGATE_GLSLC="$tmp/bin/glslc-old"
grep -q "perfgate: no glslc here compiles GL_KHR_cooperative_matrix and GL_NV_cooperative_matrix2 (the system's has glslang 11.13.0 (old): ci/install-shader-compiler.sh installs one)" "$tmp/none/out.txt" \
  || { cat "$tmp/none/out.txt"; echo "FAIL: configure did not say why the matrix shaders are left out" >&2; exit 1; }
grep -q 'register_left_out_shader("k/matrix", "no glslc here compiles' "$tmp/none/build/perfgate_shaders/k_k_matrix.spv.cpp" \
  || { echo "FAIL: the left-out shader's reason is not registered" >&2; exit 1; }
grep -q 'register_left_out_shader("k/bf16", "no glslc here compiles GL_EXT_bfloat16' "$tmp/none/build/perfgate_shaders/k_k_bf16.spv.cpp" \
  || { echo "FAIL: the left-out bf16 shader's reason is not registered" >&2; exit 1; }
grep -q 'glslc-old.*--target-env=vulkan1.2.*plain.comp' "$tmp/none/build/build.ninja" "$tmp/none/build/Makefile" \
  "$tmp/none/build/CMakeFiles/k.dir/build.make" 2>/dev/null \
  || { echo "FAIL: the plain shader is not compiled by the system's glslc" >&2; exit 1; }

# The installer's folders (HOME's cache) hold one that knows the matrix extensions and, in
# bfloat16/, one that knows bfloat16 too: each compiles its shaders for 1.3.
mkdir -p "$tmp/home/.cache/perfgate/shader-compiler/bin" "$tmp/home/.cache/perfgate/shader-compiler/bfloat16/bin"
cp "$tmp/bin/glslc-matrix" "$tmp/home/.cache/perfgate/shader-compiler/bin/glslc"
cp "$tmp/bin/glslc-new" "$tmp/home/.cache/perfgate/shader-compiler/bfloat16/bin/glslc"
configure found -DPERFGATE_GLSLC="$tmp/bin/glslc-old"
grep -q "compiled by $tmp/home/.cache/perfgate/shader-compiler/bin/glslc (glslang 15.1" "$tmp/found/out.txt" \
  || { cat "$tmp/found/out.txt"; echo "FAIL: configure did not report the matrix compiler" >&2; exit 1; }
grep -rq 'shader-compiler/bin/glslc.*--target-env=vulkan1.3.*matrix.comp' "$tmp/found/build" \
  || { echo "FAIL: the matrix shader is not compiled by the matrix glslc for Vulkan 1.3" >&2; exit 1; }
grep -q "GL_EXT_bfloat16 with cooperative matrices compiled by $tmp/home/.cache/perfgate/shader-compiler/bfloat16/bin/glslc (glslang 99.0" "$tmp/found/out.txt" \
  || { cat "$tmp/found/out.txt"; echo "FAIL: configure did not report the bfloat16 compiler" >&2; exit 1; }
grep -rq 'shader-compiler/bfloat16/bin/glslc.*--target-env=vulkan1.3.*bf16.comp' "$tmp/found/build" \
  || { echo "FAIL: the bf16 shader is not compiled by the bfloat16 glslc for Vulkan 1.3" >&2; exit 1; }
if grep -rq 'register_left_out_shader' "$tmp/found/build/perfgate_shaders"; then
  echo "FAIL: a shader was left out although a compiler knows it" >&2; exit 1
fi

# The installed package, as a consumer's configure reads it: no ci/ folder beside it, so the
# reason names no script of perfgate's tree (once "ci/install-shader-compiler.sh installs one",
# which the package lacks), and both probes are installed with it.
cmake --install "$PERFGATE_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null
pkg=$(dirname "$(find "$tmp/prefix" -name PerfgateKernels.cmake | head -1)")
[ -f "$pkg/matrix_glslc_probe.comp" ] && [ -f "$pkg/bfloat16_glslc_probe.comp" ] \
  || { ls "$pkg"; echo "FAIL: the package lacks a glslc probe" >&2; exit 1; }
rm -rf "$tmp/home/.cache"
KERNELS_CMAKE="$pkg/PerfgateKernels.cmake" configure installed -DPERFGATE_GLSLC="$tmp/bin/glslc-old"
grep -qF "perfgate: no glslc here compiles GL_KHR_cooperative_matrix and GL_NV_cooperative_matrix2 (the system's has glslang 11.13.0 (old): give one that does, a newer Debian's or the Vulkan SDK's glslc, as -DPERFGATE_MATRIX_GLSLC=PATH)" "$tmp/installed/out.txt" \
  || { cat "$tmp/installed/out.txt"; echo "FAIL: an installed package's configure did not say what to give" >&2; exit 1; }
if grep -q "install-shader-compiler" "$tmp/installed/out.txt"; then
  echo "FAIL: an installed package's configure names a script it does not have" >&2; exit 1
fi
echo "OK: left out without a matrix or bfloat16 glslc, compiled by each where found"
