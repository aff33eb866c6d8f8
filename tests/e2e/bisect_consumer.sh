#!/usr/bin/env bash
# perfgate bisect end to end on a project of a perfgate user: a scratch git repository of a small
# project with its own CPU kernel through find_package(perfgate) (perfgate installed into a
# prefix, as e2e/consumer_package does), 16 commits: kernel edits that change no work, notes and
# README edits, one commit that does not compile (fixed by the next), and one that makes the
# kernel do 30% more work (13 passes over its buffers instead of 10).
# - `bisect CASE --good ROOT --bad HEAD` names the planted commit (`first bad commit: <sha>`, and
#   first_bad in --json), skips the broken one as `git bisect skip` would, never builds the
#   commits that change only documentation, and stays within 6 builds (the failed one counted);
# - the same command run again resumes from its log: nothing built or measured again;
# - the same range as a change point of a history: `bisect --change-point ID` names the same
#   commit, records it in BISECTED.log (shown by history --changes and the HTML report; no longer
#   --unbisected) and posts a perfgate.bisect.v1 alert, kept in the outbox (no receiver);
# - a range with no slowdown (ROOT..the fix after the broken commit) ends with "no commit is
#   slower", after its two ends (already built, kept in the work folder: no build), measured with
#   `--pairs 3` (several fresh pairs a step, pooled when measured again, kept in the JSON);
# - refusals name the bad value: a revision that does not exist, a case the binary lacks, a
#   dirty source.
# Each step is an A/B check at the same moment (check --base's rounds and confirmation), which a
# parallel build beside it falls on both sides alike.
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
started=$(date +%s)
for tool in cmake git "${CXX:-c++}"; do
  command -v "$tool" >/dev/null || { echo "SKIP: no $tool"; exit 77; }
done
cmake --install "$PERFGATE_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null
export CMAKE_PREFIX_PATH="$tmp/prefix" CMAKE_BUILD_PARALLEL_LEVEL=2
command -v ninja >/dev/null && export CMAKE_GENERATOR=Ninja
export PERFGATE_CACHE_DIR="$tmp/cache"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$PERFGATE_CACHE_DIR"  # for the one `run` below (the HTML report); bisect measures no peaks

repo="$tmp/repo"
mkdir -p "$repo/kernels/spin" "$repo/docs"
cd "$repo"
git init -q -b main .
git config user.email bisect@example.com
git config user.name "bisect test"
printf 'build/\n' > .gitignore
cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(spin_kernels LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
find_package(perfgate REQUIRED)
perfgate_add_executable(spin_perfgate SOURCES kernels/spin/spin.cpp)
CMAKE
cat > kernels/spin/spin.cpp <<'CPP'
#include "perfgate/registry.h"
using namespace perfgate;

constexpr int kPasses = 10;  // passes over the buffers per dispatch

PERFGATE_KERNEL(spin) {
  return KernelDef("spin")
      .describe("y = 2 x, written kPasses times")
      .axis("n", {1 << 20})
      .buffers([](const Params& p) {
        auto n = std::size_t(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) { return Cost{4.0 * kPasses * p["n"], 4.0 * kPasses * p["n"], 1.0 * kPasses * p["n"]}; })
      .reference([](const Params&, const Buffers& b) {
          auto x = b.get<float>("x");
          std::vector<double> y(x.begin(), x.end());
          for (double& v : y) v *= 2;
          return Expected{{"y", y}};
        }, 0.0, "multiplying by 2 is exact")
      .cpu([](const Params& p, Buffers& b) {
        auto x = b.get<float>("x");
        auto y = b.get<float>("y");
        const std::int64_t n = p["n"];
        for (int pass = 0; pass < kPasses; ++pass) {
#pragma omp parallel for
          for (std::int64_t i = 0; i < n; ++i) y[i] = 2 * x[i];
        }
      });
}
CPP
echo "# spin kernels" > README.md
git add -A && git commit -qm "spin: a kernel writing y = 2 x ten times"
kernel=kernels/spin/spin.cpp
commit() { git add -A && git commit -qm "$1"; }
# 1..15: N note, K kernel edit with the same work, B broken, F its fix, P the planted slowdown.
echo "Run \`build/spin_perfgate list\`." >> README.md;                        commit "README: how to list the cases"
sed -i 's|^using namespace perfgate;|using namespace perfgate;  // the registry'"'"'s names|' $kernel; commit "spin: say where the names come from"
echo "notes" > docs/notes.md;                                               commit "docs: notes"
sed -i 's|auto n = std::size_t|const auto n = std::size_t|' $kernel;        commit "spin: a const element count"
sed -i 's|for (double& v : y) v \*= 2;|for (double\& v : y) v = 2 * v;|' $kernel; commit "spin: the reference written as the kernel is"
echo "more notes" >> docs/notes.md;                                         commit "docs: more notes"
sed -i 's|const std::int64_t n = p\["n"\];|const std::int64_t n = p["n"]|' $kernel; commit "spin: tidy the loop bounds"
sed -i 's|const std::int64_t n = p\["n"\]$|const std::int64_t n = p["n"];|' $kernel; commit "spin: fix the build"
echo "Measured on a 2-core VM." >> README.md;                               commit "README: where it was measured"
sed -i 's|constexpr int kPasses = 10;|constexpr int kPasses = 13;|' $kernel;    commit "spin: three more passes"
echo "even more notes" >> docs/notes.md;                                    commit "docs: even more notes"
sed -i 's|// passes over the buffers per dispatch|// passes over x and y per dispatch|' $kernel; commit "spin: a clearer comment"
echo "See docs/notes.md." >> README.md;                                     commit "README: point at the notes"
echo "last notes" >> docs/notes.md;                                         commit "docs: last notes"
sed -i 's|"y = 2 x, written kPasses times"|"y = 2 x, written once per pass"|' $kernel; commit "spin: describe the passes"
[ "$(git rev-list --count HEAD)" = 16 ] || { echo "FAIL: expected 16 commits" >&2; exit 1; }
root=$(git rev-list --max-parents=0 HEAD)
planted=$(git log --format=%H --grep '^spin: three more passes$')
broken=$(git log --format=%H --grep '^spin: tidy the loop bounds$')
fixed=$(git log --format=%H --grep '^spin: fix the build$')
case_id="spin/cpu/n=1048576"

# The user's own build of the project, whose perfgate runs the bisect.
cmake -S . -B build >/dev/null && cmake --build build >/dev/null
exe="$repo/build/spin_perfgate"
"$exe" list > "$tmp/list.txt"
grep -qF "$case_id" "$tmp/list.txt" || { cat "$tmp/list.txt"; echo "FAIL: $case_id not listed" >&2; exit 1; }
setup=$(($(date +%s) - started))

work="$tmp/work"
bisect() { "$exe" bisect "$case_id" --work-dir "$work" "$@"; }
t0=$(date +%s)
bisect --good "$root" --bad HEAD --json "$tmp/found.json" > "$tmp/found.txt" 2> "$tmp/found.err" ||
  { cat "$tmp/found.txt" "$tmp/found.err"; echo "FAIL: bisect exited $?" >&2; exit 1; }
found_s=$(($(date +%s) - t0))
cat "$tmp/found.txt"
grep -qF "first bad commit: $planted spin: three more passes" "$tmp/found.txt" ||
  { cat "$tmp/found.err"; echo "FAIL: the planted commit $planted is not named" >&2; exit 1; }
python3 - "$tmp/found.json" "$planted" "$broken" <<'PY'
import json, sys
out, planted, broken = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
assert out["first_bad"] == planted, out["first_bad"]
assert out["end"] == "found" and len(out["culprits"]) == 1 and out["culprits"][0]["exact"], out["culprits"]
assert out["builds"] <= 6, f"{out['builds']} builds"
skipped = [s for s in out["steps"] if s["verdict"] == "skipped"]
assert [s["commit"] for s in skipped] == [broken], out["steps"]
assert "does not build" in skipped[0]["message"], skipped[0]
measured = {s["commit"] for s in out["steps"]}
assert not measured & set(out["unrelated_commits"]), "a documentation-only commit was measured"
step = out["culprits"][0]["step"]
assert step["verdict"] == "slower" and step["interval"][0] > 1.05, step
print(f"builds {out['builds']}, steps {len(out['steps'])}, culprit x{step['ratio']:.3f} "
      f"[{step['interval'][0]:.3f}, {step['interval'][1]:.3f}]")
PY

# Run again: resumed from the log, nothing built or measured.
t0=$(date +%s)
bisect --good "$root" --bad HEAD > "$tmp/resumed.txt" 2> "$tmp/resumed.err"
grep -qF "resumed:" "$tmp/resumed.err" || { cat "$tmp/resumed.err"; echo "FAIL: not resumed from the log" >&2; exit 1; }
grep -qF "first bad commit: $planted" "$tmp/resumed.txt" || { cat "$tmp/resumed.txt"; echo "FAIL: resumed bisect lost the culprit" >&2; exit 1; }
[ $(($(date +%s) - t0)) -lt 10 ] || { echo "FAIL: the resumed bisect measured again" >&2; exit 1; }

# The same range as a change point of the project's history (8 runs at the root, 8 at HEAD, 30%
# slower): `bisect --change-point` takes its case and range (its log replays: nothing measured),
# records the culprit beside the change point (history --changes, the HTML report) and posts the
# alert, which waits in the outbox while the receiver is down.
machine=$("$exe" list --machine-id --backend cpu)
history="$tmp/history"
mkdir -p "$history"
python3 - "$history/$machine.jsonl" "$root" "$(git rev-parse HEAD)" "$case_id" <<'PY'
import json, random, sys
path, before, after, case = sys.argv[1:5]
rng = random.Random(3)
with open(path, "w") as f:
    for run in range(16):
        level = 5e6 * (1.3 if run >= 8 else 1.0) * (1 + rng.gauss(0, 0.005))
        f.write(json.dumps({"run_id": f"run-{run:02d}", "started_at": f"2026-11-{run + 1:02d}T00:00:00Z",
                            "commit": before if run < 8 else after, "branch": "main", "case": case,
                            "verdict": "pass", "medians": {"latency_ns": level},
                            "spreads": {"latency_ns": level * 0.005}}) + "\n")
PY
cp_id=$("$exe" history --history "$history" --unbisected)
[ "$(wc -w <<<"$cp_id")" = 1 ] || { echo "FAIL: expected one unbisected change point, got '$cp_id'" >&2; exit 1; }
PERFGATE_WEBHOOK_URL=http://127.0.0.1:9/hook PERFGATE_WEBHOOK_SECRET="whsec_$(printf '%032d' 0 | base64)" \
  PERFGATE_WEBHOOK_ATTEMPTS=1 PERFGATE_OUTBOX="$tmp/outbox" \
  "$exe" bisect --change-point "$cp_id" --history "$history" --work-dir "$work" --notify \
  --json "$tmp/cp.json" > "$tmp/cp.txt" 2> "$tmp/cp.err" ||
  { cat "$tmp/cp.txt" "$tmp/cp.err"; echo "FAIL: bisect --change-point exited $?" >&2; exit 1; }
grep -qF "first bad commit: $planted" "$tmp/cp.txt" || { cat "$tmp/cp.txt" "$tmp/cp.err"; echo "FAIL: the change point was not bisected to the planted commit" >&2; exit 1; }
grep -qF "against the change point $cp_id" "$tmp/cp.txt" || { cat "$tmp/cp.txt"; echo "FAIL: no magnitude check against the change point" >&2; exit 1; }
grep -qF "${planted:0:12}" "$history/BISECTED.log" || { echo "FAIL: BISECTED.log lacks the culprit" >&2; exit 1; }
"$exe" history --history "$history" --changes > "$tmp/changes.txt"
grep -qF "bisected to ${planted:0:10}" "$tmp/changes.txt" || { cat "$tmp/changes.txt"; echo "FAIL: history --changes does not show the culprit" >&2; exit 1; }
[ -z "$("$exe" history --history "$history" --unbisected)" ] || { echo "FAIL: the change point is still unbisected" >&2; exit 1; }
python3 - "$tmp/outbox" "$planted" "$cp_id" <<'PY'
import glob, json, sys
outbox, planted, cp = sys.argv[1:4]
bodies = [json.loads(json.load(open(f))["body"]) for f in glob.glob(outbox + "/msg_*.json")]
assert len(bodies) == 1, f"{len(bodies)} alerts in the outbox"
alert = bodies[0]
assert alert["schema"] == "perfgate.bisect.v1" and alert["first_bad"] == planted, alert
assert alert["change_point"]["id"] == cp and planted[:12] in alert["text"], alert
PY
"$exe" run "$case_id" --no-judge --quiet --json "$tmp/run.json" > /dev/null
"$exe" report "$tmp/run.json" --history "$history" --html "$tmp/report.html"
grep -qF "bisected to ${planted:0:10}" "$tmp/report.html" || { echo "FAIL: the HTML report does not show the culprit" >&2; exit 1; }

# A range with no slowdown: ends after its two ends, both kept from the first bisect. Measured
# with several pairs a step (--pairs), each kept in the JSON, the step's earlier pairs pooled.
bisect --good "$root" --bad "$fixed" --pairs 3 --json "$tmp/none.json" > "$tmp/none.txt" 2> "$tmp/none.err" ||
  { cat "$tmp/none.txt" "$tmp/none.err"; echo "FAIL: bisect of the quiet range exited $?" >&2; exit 1; }
cat "$tmp/none.txt"
grep -qF "no commit is slower" "$tmp/none.txt" || { echo "FAIL: the quiet range named a culprit" >&2; exit 1; }
if grep -q "first bad commit" "$tmp/none.txt"; then echo "FAIL: a culprit in the quiet range" >&2; exit 1; fi
python3 - "$tmp/none.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["first_bad"] is None and o["end"] == "none slower", o
last = o["steps"][-1]
pairs = next(iter(last["pairs"].values()))
assert last["verdict"] == "not slower" and len(pairs) == 3 * len(o["steps"]), last
assert all(0.5 < r < 2 for r in pairs), pairs
PY
grep -qE "over [0-9]+ pairs" "$tmp/none.txt" || { echo "FAIL: the quiet range does not say its pairs" >&2; exit 1; }

# Refusals, each naming the value at fault.
refused() {  # refused TEXT -- args...
  local text=$1 got=0; shift 2
  "$exe" bisect "$@" > "$tmp/refusal.txt" 2>&1 || got=$?
  [ "$got" = 2 ] && grep -qF -- "$text" "$tmp/refusal.txt" ||
    { cat "$tmp/refusal.txt"; echo "FAIL: expected exit 2 and '$text', got exit $got" >&2; exit 1; }
}
refused "--good nosuchrev names no commit" -- "$case_id" --good nosuchrev --bad HEAD
refused "case id 'spun/cpu/n=1048576': no kernel named 'spun'" -- "spun/cpu/n=1048576" --good "$root" --bad HEAD
echo "// local edit" >> $kernel
refused "has uncommitted changes (kernels/spin/spin.cpp)" -- "$case_id" --good "$root" --bad HEAD
git checkout -q -- $kernel

echo "OK: setup ${setup} s (install, the project's own build), bisect ${found_s} s, whole test $(($(date +%s) - started)) s"
