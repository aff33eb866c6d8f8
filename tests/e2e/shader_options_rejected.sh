#!/usr/bin/env bash
# perfgate_add_kernels refuses bad arguments at configure time, naming the call and the argument:
# each case below configures a one-target project with one mistake and must fail with its message.
# Runs beside other tests: it configures projects, measures nothing.
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/src/k"
printf '#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n' > "$tmp/src/k/k.comp"
printf 'int main() { return 0; }\n' > "$tmp/src/main.cpp"
touch "$tmp/src/k/k.cpp"

n=0
expect_refused() {  # expect_refused 'MESSAGE' ARGS...
  local message="$1"; shift
  n=$((n + 1))
  local dir="$tmp/case$n"
  mkdir -p "$dir"
  cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(refused LANGUAGES CXX)
include("$PERFGATE_SOURCE_DIR/ctest/PerfgateKernels.cmake")
add_executable(k "$tmp/src/main.cpp")
perfgate_add_kernels(k $*)
CMAKE
  if cmake -S "$dir" -B "$dir/build" > "$dir/out.txt" 2>&1; then
    echo "FAIL: configure accepted: perfgate_add_kernels(k $*)" >&2; exit 1
  fi
  grep -qF -- "$message" "$dir/out.txt" || {
    cat "$dir/out.txt"; echo "FAIL: no '$message' for: perfgate_add_kernels(k $*)" >&2; exit 1; }
}

s="$tmp/src/k/k.comp"
expect_refused "unknown keyword 'DEFINE' (after SHADERS" SHADERS "$s" DEFINE A_TYPE=float
expect_refused "SHADERS entry 'missing.comp' is not a file" SHADERS missing.comp
expect_refused "DEFINES entry '1BAD' is not NAME or NAME=VALUE" SHADERS "$s" DEFINES 1BAD
expect_refused "INCLUDE_DIRS entry 'no/such/dir' is not a folder" SHADERS "$s" INCLUDE_DIRS no/such/dir
expect_refused "two shaders embedded as 'k/k'" SHADERS "$s" VARIANT k/k SOURCE "$s"
expect_refused "VARIANT k/v has no SOURCE" SHADERS "$s" VARIANT k/v DEFINES A=1
expect_refused "VARIANT k/v: unexpected argument 'OOPS'" VARIANT k/v OOPS SOURCE "$s"
expect_refused "VARIANT name 'bad:name' is not a shader name" VARIANT bad:name SOURCE "$s"
expect_refused "unexpected argument 'stray'" stray SOURCES "$tmp/src/k/k.cpp"

# And a correct call with every option configures.
dir="$tmp/ok"
mkdir -p "$dir"
cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(accepted LANGUAGES CXX)
include("$PERFGATE_SOURCE_DIR/ctest/PerfgateKernels.cmake")
add_executable(k "$tmp/src/main.cpp")
perfgate_add_kernels(k SHADERS "$s" DEFINES A=1 B INCLUDE_DIRS "$tmp/src"
                     VARIANT k/k_f16 SOURCE "$s" DEFINES A_TYPE=float16_t INCLUDE_DIRS "$tmp/src/k"
                     VARIANT k/k_f32 SOURCE "$s" DEFINES A_TYPE=float)
CMAKE
cmake -S "$dir" -B "$dir/build" > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; echo "FAIL: a correct call was refused" >&2; exit 1; }
grep -q 'register_shader("k/k_f16"' "$dir/build/perfgate_shaders/k_k_k_f16.spv.cpp" \
  || { echo "FAIL: variant k/k_f16 not embedded under its name" >&2; exit 1; }
echo "OK: $n mistakes refused"
