#!/usr/bin/env bash
# Builds a copy of this project whose kernel does PCT% more work under the same case ids, for
# A/B studies and tests: `perfgate check CASE --base <normal build>` run from the copy must
# find the slowdown.
#
#   tests/study/build_slowed.sh KERNEL PCT OUTDIR
#
# KERNEL: copy/cpu, copy/vulkan, matmul/cpu or matmul/vulkan. PCT: 1..100 (copy/cpu and
# copy/vulkan: up to 900); copy/vulkan also takes hundredths from 0.01 (0.75: three quarters of
# a percent more work), for GPU studies whose steps are fractions of a percent. The patch adds one extra
# pass over the first PCT% of the elements after the kernel's own pass, writing the same values
# again, so the result stays exact and every case id is unchanged:
#   copy/cpu     kernels/copy/copy.cpp: a second OpenMP loop b[i] = a[i] over i < n * PCT / 100;
#                past 100, PCT / 100 whole extra passes (each its own OpenMP loop, as the one
#                pass is) and one over the rest: 300 is four times the work
#   copy/vulkan  kernels/copy/copy.comp: a second tile loop over the first PCT% of the vec4s;
#                past 100, PCT / 100 whole extra tile loops and one over the rest (on llvmpipe
#                twice the work is 1.6-1.85x the time, so a slowdown of 2x in time takes more)
#   matmul/cpu   kernels/matmul/matmul.cpp (compute-bound): after the product, the product of
#                the first PCT% of A's rows again, into the same rows of C (C = A * B is
#                written, not accumulated, so the result stays exact): PCT% more multiply-adds
#   matmul/vulkan kernels/matmul/matmul.glsl (compute-bound): in each step of K, a second pass of
#                multiply-adds over the first PCT% of the step's columns (whole columns: BK=16
#                gives steps of 6.25%), in reverse order into accumulators of their own, which
#                reach the output only through a comparison no product meets (a compiler cannot
#                drop work whose result is read), so the result stays exact
# On the CPU the extra pass is a second OpenMP parallel region: its fork and join cost little
# on a quiet machine, but on a loaded 2-core one each region waits for its cores, so a 10%
# patch measured 1.5..2.6x there (and 100% measured 2..5.4x): read PCT as "at least".
# OUTDIR/src is the patched copy (the tree without build/ and .git), OUTDIR/src/build its build
# (the `ci` preset, only the perfgate target); the binary is printed on the last line.
# Calling it again with the same OUTDIR reuses that build: only what changed is rebuilt.
# With ccache installed both builds compile through it (PERFGATE_CCACHE), each with its own
# source tree as ccache's base_dir, so the unchanged sources compile from the cache.
# Environment: PERFGATE_SOURCE_DIR (default: this script's project), CMAKE_ARGS (extra
# configure arguments, e.g. -DPERFGATE_VULKAN=OFF), PATCH_ONLY=1 (patch the copy, print the
# patched file's path and build nothing: tests/study/bisect_planted.sh commits it).
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 KERNEL PCT OUTDIR   (KERNEL: copy/cpu, copy/vulkan, matmul/cpu or matmul/vulkan; PCT: 1..100, copy/cpu and copy/vulkan 1..900)" >&2
  exit 2
fi
kernel=$1 pct=$2 out=$3
max_pct=100
[ "$kernel" = copy/cpu ] || [ "$kernel" = copy/vulkan ] && max_pct=900
# copy/vulkan's patch counts in hundredths of a percent (basis points of the elements).
bp=
if [ "$kernel" = copy/vulkan ] && [[ "$pct" =~ ^([0-9]+)(\.([0-9]{1,2}))?$ ]]; then
  frac=${BASH_REMATCH[3]}
  bp=$(( 10#${BASH_REMATCH[1]} * 100 + 10#${frac:-0} * (${#frac} == 1 ? 10 : 1) ))
  if [ "$bp" -lt 1 ] || [ "$bp" -gt $(( max_pct * 100 )) ]; then bp=; fi
  pct_ok=${bp:+yes}
elif [[ "$pct" =~ ^[0-9]+$ ]] && [ "$pct" -ge 1 ] && [ "$pct" -le "$max_pct" ]; then
  pct_ok=yes
fi
if [ -z "${pct_ok:-}" ]; then
  echo "$0: PCT must be a whole number from 1 to $max_pct for $kernel, got '$pct'" >&2
  exit 2
fi
src=${PERFGATE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
mkdir -p "$out/src"
out=$(cd "$out" && pwd)
# tar keeps modification times, so a reused build rebuilds only what changed. The copy is
# emptied first (its build kept): a source moved or deleted since the last copy would otherwise
# stay, and a file that moved from one folder to another compiled twice.
find "$out/src" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
tar -C "$src" --exclude=./build --exclude=./.git -cf - . | tar -C "$out/src" -xf -

case "$kernel" in
  copy/cpu)
    file="$out/src/kernels/copy/copy.cpp"
    loop='        for (std::int64_t i = 0; i < n; ++i) b\[i\] = a\[i\];'
    [ "$(grep -c "^$loop\$" "$file")" -eq 1 ] || { echo "$0: the copy loop of $file has changed; update the patch" >&2; exit 2; }
    if [ "$pct" -le 100 ]; then
      sed -i "/^$loop\$/a\\
        // build_slowed.sh: ${pct}% more work, the same result\\
        const std::int64_t extra = n / 100 * $pct + n % 100 * $pct / 100;\\
#pragma omp parallel for simd schedule(static)\\
        for (std::int64_t i = 0; i < extra; ++i) b[i] = a[i];" "$file"
    else
      rest=$(( pct % 100 ))
      sed -i "/^$loop\$/a\\
        // build_slowed.sh: ${pct}% more work, the same result\\
        for (int pass = 0; pass < $(( pct / 100 )); ++pass) {\\
#pragma omp parallel for simd schedule(static)\\
          for (std::int64_t i = 0; i < n; ++i) b[i] = a[i];\\
        }" "$file"
      [ "$rest" -eq 0 ] || sed -i "/^        for (int pass = 0; pass < $(( pct / 100 )); ++pass) {\$/,/^        }\$/{/^        }\$/a\\
        const std::int64_t extra = n / 100 * $rest + n % 100 * $rest / 100;\\
#pragma omp parallel for simd schedule(static)\\
        for (std::int64_t i = 0; i < extra; ++i) b[i] = a[i];
}" "$file"
    fi
    ;;
  copy/vulkan)
    file="$out/src/kernels/copy/copy.comp"
    anchor='  if (gl_GlobalInvocationID.x == 0) {'
    [ "$(grep -cF "$anchor" "$file")" -eq 1 ] || { echo "$0: the tail of $file has changed; update the patch" >&2; exit 2; }
    # Up to 100%: one extra tile loop over the first PCT% of the vec4s; past it, PCT / 100 whole
    # ones and one over the rest (passes of n4 vec4s, then the rest's share).
    passes=$(( bp > 10000 ? bp / 10000 : 0 )) rest=$(( bp > 10000 ? bp % 10000 : bp ))
    sed -i "/^  if (gl_GlobalInvocationID.x == 0) {\$/i\\
  // build_slowed.sh: ${pct}% more work, the same result\\
  for (uint pass = 0; pass <= ${passes}u; ++pass) {\\
    const uint extra4 = pass < ${passes}u ? n4 : n4 / 10000u * ${rest}u + n4 % 10000u * ${rest}u / 10000u;\\
    const uint extra_tiles = (extra4 + tile - 1) / tile;\\
    for (uint t = gl_WorkGroupID.x; t < extra_tiles; t += gl_NumWorkGroups.x) {\\
      const uint first = t * tile + gl_LocalInvocationID.x;\\
      [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) {\\
        const uint i = first + e * wg;\\
        if (i < extra4) b[i] = a[i];\\
      }\\
    }\\
  }" "$file"
    ;;
  matmul/cpu)
    file="$out/src/kernels/matmul/matmul.cpp"
    call='        gemm(row_major_gemm(p), buf.get<float>("a").data(), buf.get<float>("b").data(), buf.get<float>("c").data());'
    [ "$(grep -cxF "$call" "$file")" -eq 1 ] || { echo "$0: the product call of $file has changed; update the patch" >&2; exit 2; }
    python3 - "$file" "$pct" "$call" <<'PY' || exit 2
import sys
path, pct, call = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(path).read()
text = text.replace(call + "\n", call + "\n" +
                    f"        // build_slowed.sh: {pct}% more work, the same result\n"
                    "        GemmShape again = row_major_gemm(p);\n"
                    f"        again.m = again.m * {pct} / 100;\n"
                    "        gemm(again, buf.get<float>(\"a\").data(), buf.get<float>(\"b\").data(), buf.get<float>(\"c\").data());\n")
open(path, "w").write(text)
PY
    ;;
  matmul/vulkan)
    file="$out/src/kernels/matmul/matmul.glsl"
    python3 - "$file" "$pct" <<'PY' || exit 2
import sys
path, pct = sys.argv[1], int(sys.argv[2])
text = open(path).read()
loop = "  for (uint k0 = 0; k0 < s.K; k0 += BK) {\n"
fmas = "        for (uint j = 0; j < RN; ++j) acc[i][j] = fma(ar[i], br[j], acc[i][j]);\n    }\n"
store = "c[c_base + ROW(i) * s.ldc + COL(j)] = s.alpha * acc[i][j];"
if any(text.count(anchor) != 1 for anchor in (loop, fmas, store)):
    sys.exit(f"build_slowed.sh: the multiply-add loop of {path} has changed; update the patch")
# Scalar reads of the step's shared tiles, in either variant's layout.
read = ("#ifdef VEC4\n"
        "#define EXTRA_A(kk, i) As[((kk) * LD + ROW(i)) >> 2][ROW(i) & 3]\n"
        "#define EXTRA_B(kk, j) Bs[((kk) * LD + COL(j)) >> 2][COL(j) & 3]\n"
        "#else\n"
        "#define EXTRA_A(kk, i) As[(kk) * LD + ROW(i)]\n"
        "#define EXTRA_B(kk, j) Bs[(kk) * LD + COL(j)]\n"
        "#endif\n")
text = text.replace(loop, f"  // build_slowed.sh: {pct}% more work, the same result\n" + read +
                    "  float extra_acc[RM][RN];\n"
                    "  for (uint i = 0; i < RM; ++i)\n"
                    "    for (uint j = 0; j < RN; ++j) extra_acc[i][j] = 0.0;\n" + loop)
text = text.replace(fmas, fmas +
                    f"    for (uint kk = (BK * {pct}u + 99u) / 100u; kk-- > 0u;)\n"
                    "      for (uint i = 0; i < RM; ++i)\n"
                    "        for (uint j = 0; j < RN; ++j) extra_acc[i][j] = fma(EXTRA_A(kk, i), EXTRA_B(kk, j), extra_acc[i][j]);\n")
text = text.replace(store, store[:-1] + " + (extra_acc[i][j] == -1.5e38 ? 1.0 : 0.0);")
open(path, "w").write(text)
PY
    ;;
  *)
    echo "$0: no slowdown patch for '$kernel' (copy/cpu, copy/vulkan, matmul/cpu, matmul/vulkan)" >&2
    exit 2
    ;;
esac
grep -q "build_slowed.sh: ${pct}% more work" "$file" || { echo "$0: patching $file failed" >&2; exit 2; }
[ -n "${PATCH_ONLY:-}" ] && { echo "$file"; exit 0; }

# The copy's own CMakeLists compiles through ccache (PERFGATE_CCACHE) with paths relative to
# its source tree, so every object but the patched kernel's comes from the original's cache.
# shellcheck disable=SC2086
(cd "$out/src" && cmake --preset ci -DPERFGATE_TESTS=OFF ${CMAKE_ARGS:-}) >"$out/configure.log" 2>&1 ||
  { cat "$out/configure.log" >&2; exit 2; }
cmake --build "$out/src/build" --target perfgate >"$out/build.log" 2>&1 || { tail -50 "$out/build.log" >&2; exit 2; }
echo "$out/src/build/perfgate"
