#!/usr/bin/env bash
# Provides the shader compilers perfgate's newer shaders need, which Debian 12's glslc (glslang
# 11.13) is too old for:
#   - one that knows GL_KHR_cooperative_matrix and GL_NV_cooperative_matrix2 (the tensor-core
#     shaders at subgroup and workgroup scope): Debian 13's, into DIR;
#   - one that also knows GL_EXT_bfloat16 (the bf16 tensor-core shaders): Debian 13's glslang
#     (15.1) refuses it, so Debian unstable's, into DIR/bfloat16. Unstable moves: whatever version
#     it serves is taken if it compiles the probe, and without one the bf16 shaders are left out
#     of the build (this script still succeeds).
#
#   ci/install-shader-compiler.sh [DIR]     (default: $PERFGATE_SHADER_COMPILER_DIR, else
#                                            ~/.cache/perfgate/shader-compiler)
#
# The system's glslc is used where it already knows them (a newer Debian, a Vulkan SDK): nothing
# is installed. Otherwise a suite's glslc is unpacked with its own C and C++ runtime, leaving the
# system's packages alone: apt-get downloads them through a private sources list and package
# lists, `dpkg -x` unpacks them, and <folder>/bin/glslc runs the compiler through the unpacked
# loader. CMake looks there (ctest/PerfgateShaderCompiler.cmake).
set -euo pipefail
dir="${1:-${PERFGATE_SHADER_COMPILER_DIR:-$HOME/.cache/perfgate/shader-compiler}}"
probes="$(cd "$(dirname "$0")/.." && pwd)/ctest"

# Whether a glslc compiles a probe shader (ctest/*_glslc_probe.comp).
compiles() {
  local glslc="$1" probe="$2" out status=0
  out=$(mktemp -d)
  "$glslc" --target-env=vulkan1.3 "$probes/$probe" -o "$out/probe.spv" >/dev/null 2>&1 || status=1
  rm -rf "$out"
  return $status
}

# Unpacks SUITE's glslc into FOLDER (emptied first): FOLDER/bin/glslc and friends.
unpack() {
  local suite="$1" folder="$2"
  rm -rf "$folder"
  mkdir -p "$folder/apt/lists/partial" "$folder/apt/cache/archives/partial" "$folder/debs" "$folder/root" "$folder/bin"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
    >"$folder/apt/sources.list"
  local apt_options=(
    -oAPT::Architecture=amd64 -oAPT::Architectures=amd64
    -oDir::State::Lists="$folder/apt/lists" -oDir::Cache="$folder/apt/cache" -oDir::State::status=/dev/null
    -oDir::Etc::SourceList="$folder/apt/sources.list" -oDir::Etc::SourceParts=/nonexistent
  )
  [ "$(id -u)" -ne 0 ] || apt_options+=(-oAPT::Sandbox::User=root)
  apt-get "${apt_options[@]}" update -qq
  (cd "$folder/debs" && apt-get "${apt_options[@]}" download -qq \
    glslc glslang-tools libshaderc1 spirv-tools libc6 libgcc-s1 libstdc++6)
  local deb
  for deb in "$folder"/debs/*.deb; do dpkg -x "$deb" "$folder/root"; done
  rm -rf "$folder/apt" "$folder/debs"
  local lib="$folder/root/usr/lib/x86_64-linux-gnu" tool
  for tool in glslc glslangValidator spirv-dis spirv-val; do
    cat >"$folder/bin/$tool" <<WRAPPER
#!/bin/sh
# Debian $suite's $tool with its own loader and runtime (ci/install-shader-compiler.sh).
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$folder/root/usr/bin/$tool" "\$@"
WRAPPER
    chmod +x "$folder/bin/$tool"
  done
}

# Provides a glslc that compiles PROBE: the system's, one already in FOLDER, or SUITE's unpacked
# into FOLDER. Returns 1 (leaving FOLDER empty) when none does.
provide() {
  local what="$1" probe="$2" suite="$3" folder="$4"
  if command -v glslc >/dev/null && compiles glslc "$probe"; then
    echo "install-shader-compiler: the system's glslc knows $what ($(command -v glslc))"
    return 0
  fi
  if [ -x "$folder/bin/glslc" ] && compiles "$folder/bin/glslc" "$probe"; then
    echo "install-shader-compiler: $what: present in $folder ($("$folder/bin/glslc" --version | head -1))"
    return 0
  fi
  echo "install-shader-compiler: $what: unpacking Debian $suite's glslc into $folder"
  unpack "$suite" "$folder"
  if ! compiles "$folder/bin/glslc" "$probe"; then
    echo "install-shader-compiler: Debian $suite's glslc ($("$folder/bin/glslc" --version | head -1)) does not compile $probe" >&2
    rm -rf "$folder"
    return 1
  fi
  echo "install-shader-compiler: $what: $("$folder/bin/glslc" --version | head -1) in $folder ($(du -sh "$folder" | cut -f1))"
}

provide "the cooperative-matrix extensions" matrix_glslc_probe.comp trixie "$dir"
provide "GL_EXT_bfloat16" bfloat16_glslc_probe.comp sid "$dir/bfloat16" ||
  echo "install-shader-compiler: no glslc for GL_EXT_bfloat16: the bf16 tensor-core shaders are left out of the build" >&2
