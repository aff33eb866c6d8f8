#!/usr/bin/env bash
# Provides a shader compiler that knows GL_KHR_cooperative_matrix and GL_NV_cooperative_matrix2
# (the tensor-core shaders at workgroup scope), which Debian 12's glslc (glslang 11.13) does not.
#
#   ci/install-shader-compiler.sh [DIR]     (default: $PERFGATE_SHADER_COMPILER_DIR, else
#                                            ~/.cache/perfgate/shader-compiler)
#
# The system's glslc is used where it already knows them (Debian 13, a Vulkan SDK): nothing is
# installed. Otherwise Debian 13's glslc is unpacked into DIR with its own C and C++ runtime,
# leaving the system's packages alone: apt-get downloads them through a private sources list
# and package lists under DIR, `dpkg -x` unpacks them, and DIR/bin/glslc runs the compiler
# through the unpacked loader. CMake looks there (ctest/PerfgateShaderCompiler.cmake).
set -euo pipefail
dir="${1:-${PERFGATE_SHADER_COMPILER_DIR:-$HOME/.cache/perfgate/shader-compiler}}"
probe_source="$(cd "$(dirname "$0")/.." && pwd)/ctest/matrix_glslc_probe.comp"

# Whether a glslc compiles a workgroup-scope cooperative matrix loaded through a tensor layout.
knows_matrix_extensions() {
  local glslc="$1" probe
  probe=$(mktemp -d)
  local status=0
  "$glslc" --target-env=vulkan1.3 "$probe_source" -o "$probe/probe.spv" >/dev/null 2>&1 || status=1
  rm -rf "$probe"
  return $status
}

if command -v glslc >/dev/null && knows_matrix_extensions glslc; then
  echo "install-shader-compiler: the system's glslc knows the cooperative-matrix extensions ($(command -v glslc))"
  exit 0
fi
if [ -x "$dir/bin/glslc" ] && knows_matrix_extensions "$dir/bin/glslc"; then
  echo "install-shader-compiler: present in $dir ($("$dir/bin/glslc" --version | head -1))"
  exit 0
fi

echo "install-shader-compiler: unpacking Debian 13's glslc into $dir"
rm -rf "$dir"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs" "$dir/root" "$dir/bin"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
  >"$dir/apt/sources.list"
apt_options=(
  -oAPT::Architecture=amd64 -oAPT::Architectures=amd64
  -oDir::State::Lists="$dir/apt/lists" -oDir::Cache="$dir/apt/cache" -oDir::State::status=/dev/null
  -oDir::Etc::SourceList="$dir/apt/sources.list" -oDir::Etc::SourceParts=/nonexistent
)
[ "$(id -u)" -ne 0 ] || apt_options+=(-oAPT::Sandbox::User=root)
apt-get "${apt_options[@]}" update -qq
(cd "$dir/debs" && apt-get "${apt_options[@]}" download -qq \
  glslc glslang-tools libshaderc1 spirv-tools libc6 libgcc-s1 libstdc++6)
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
rm -rf "$dir/apt" "$dir/debs"

lib="$dir/root/usr/lib/x86_64-linux-gnu"
for tool in glslc glslangValidator spirv-dis spirv-val; do
  cat >"$dir/bin/$tool" <<WRAPPER
#!/bin/sh
# Debian 13's $tool with its own loader and runtime (ci/install-shader-compiler.sh).
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$dir/root/usr/bin/$tool" "\$@"
WRAPPER
  chmod +x "$dir/bin/$tool"
done
if ! knows_matrix_extensions "$dir/bin/glslc"; then
  echo "install-shader-compiler: $dir/bin/glslc does not compile the cooperative-matrix probe" >&2
  exit 1
fi
echo "install-shader-compiler: $("$dir/bin/glslc" --version | head -1) in $dir ($(du -sh "$dir" | cut -f1))"
