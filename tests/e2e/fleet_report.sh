#!/usr/bin/env bash
# One page across machines: results of three machine ids (real CPU runs judged with `perfgate
# compare`, tests/report/e2e_runs.bash, and the same cases as an llvmpipe and an H100 runner report them, one regressed) go
# through `perfgate report A B C`. The Markdown is checked as GitHub-flavoured tables (every row
# as many cells as the heading, a column per machine, each machine's resolution); the HTML is
# rendered in headless Chromium (no console errors, a column per machine, a non-blank page).
# Runs beside other tests: it asserts the page's form, not the verdicts of what it measured.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_E2E_TMP:?}"
source "$PERFGATE_SOURCE_DIR/tests/report/browser.bash"
[ -x "$CHROMIUM" ] || { echo "no $CHROMIUM (Debian package chromium): skipping"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipping"; exit 77; }
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
source "$(dirname "$0")/../report/e2e_runs.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }

# The real CPU runs judged by compare, measured once for the report tests (the fixture).
copy_runs "$tmp" || fail "no runs to report"
cp "$tmp/judged.json" "$tmp/cpu.json"
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
run = json.load(open(f"{tmp}/cpu.json"))
# The real run's verdicts are what this machine measured; the other two are set.
for machine, device in (("llvmpipe", "llvmpipe (LLVM 15.0.6, 256 bits)"), ("nvidia-h100-80gb-hbm3", "NVIDIA H100 80GB HBM3")):
    other = json.loads(json.dumps(run))
    other["fingerprint"].update(machine_id=machine, device_name=device)
    other["run_id"] += "-" + machine
    for i, case in enumerate(other["cases"]):
        regressed = machine == "nvidia-h100-80gb-hbm3" and i == 0
        case["verdict"] = "regressed" if regressed else "pass"
        for j in case["judgements"]:
            j["change_pct"], j["verdict"] = (12.5 if regressed else 1.0), case["verdict"]
    other["cases"].append(dict(other["cases"][1], id="fill/vulkan/n=1048576", kernel="fill", backend="vulkan"))
    json.dump(other, open(f"{tmp}/{machine}.json", "w"))
PY
results=("$tmp/cpu.json" "$tmp/llvmpipe.json" "$tmp/nvidia-h100-80gb-hbm3.json")
"$PERFGATE" report "${results[@]}" --markdown "$tmp/fleet.md" --html "$tmp/fleet.html"
"$PERFGATE" report "${results[@]}" >"$tmp/stdout.md"
cmp -s "$tmp/stdout.md" "$tmp/fleet.md" || fail "report without outputs must print the Markdown"
set +e
"$PERFGATE" report "${results[@]}" --junit "$tmp/x.xml" >"$tmp/junit.out" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q -- '--junit takes one run' "$tmp/junit.out" || fail "--junit over several runs must be refused (exit $rc)"
cat "$tmp/fleet.md"

python3 - "$tmp" <<'PY' || fail "the Markdown is not the expected GitHub-flavoured page"
import json, re, sys
tmp = sys.argv[1]
machine_ids = sorted(json.load(open(f"{tmp}/{n}.json"))["fingerprint"]["machine_id"]
                     for n in ("cpu", "llvmpipe", "nvidia-h100-80gb-hbm3"))
assert len(set(machine_ids)) == 3, machine_ids
lines = open(f"{tmp}/fleet.md").read().split("\n")

def cells(row):
    assert row.startswith("|") and row.endswith("|"), row
    return [c.strip() for c in re.split(r"(?<!\\)\|", row[1:-1])]

# Every table: a heading, a delimiter row of as many cells, rows of as many cells, no raw tag.
tables, current = [], None
for line in lines:
    if line.startswith("|"):
        if current is None:
            current = []
            tables.append(current)
        current.append(line)
    else:
        current = None
assert len(tables) == 2, len(tables)
for table in tables:
    width = len(cells(table[0]))
    assert all(re.fullmatch(r":?-{3,}:?", c) for c in cells(table[1])), table[1]
    for row in table:
        assert len(cells(row)) == width, (width, row)
        assert "<" not in row, row
machines, grid = tables
assert [c.strip("`") for c in cells(grid[0])[1:]] == machine_ids, cells(grid[0])
assert [cells(r)[0].strip("`") for r in machines[2:]] == machine_ids
resolutions = cells(grid[2])
assert resolutions[0] == "*resolution*" and all(r.startswith("*catches >= ") for r in resolutions[1:]), resolutions
rows = {cells(r)[0].strip("`"): cells(r)[1:] for r in grid[3:]}
run = json.load(open(f"{tmp}/cpu.json"))
assert set(rows) == {c["id"] for c in run["cases"]} | {"fill/vulkan/n=1048576"}, sorted(rows)
h100 = machine_ids.index("nvidia-h100-80gb-hbm3")
first = run["cases"][0]["id"]
assert rows[first][h100] == "**regressed +12.5%**", rows[first]
assert "regressed" in " ".join(rows[list(rows)[0]]), "a regressed case comes first"
assert all(cell == "pass +1.0%" for cell in (r[machine_ids.index("llvmpipe")] for r in rows.values())), rows
assert rows["fill/vulkan/n=1048576"][machine_ids.index(run["fingerprint"]["machine_id"])] == "-"
assert re.match(r"## perfgate on 3 machines: \*\*\d+ regressed\*\*", lines[0]), lines[0]
print("Markdown: 2 tables,", len(rows), "cases x 3 machines")
PY

render "file://$tmp/fleet.html" fleet 1400 900
check_screenshot "$tmp/fleet.png" 1400 900
python3 - "$tmp/fleet.dom.html" <<'PY' || fail "the rendered page lacks the cases-by-machines table"
import re, sys
dom = open(sys.argv[1]).read()
assert "perfgate report: 3 machines" in dom
table = dom[dom.index('id="cases"'):]
table = table[:table.index("</table>")]
heads = re.findall(r'<th class="id">([^<]*)</th>', table)
assert len(heads) == 3 and heads[1:] == ["llvmpipe", "nvidia-h100-80gb-hbm3"], heads
assert table.count("<tr>") == 2 + 3, table.count("<tr>")  # heading, resolutions, 3 cases
assert 'class="chip v-regressed"' in table and 'class="worse">+12.5%' in table
assert table.count("catches &gt;= ") == 3
PY
echo "OK: one report across three machines, Markdown checked, HTML rendered in headless chromium"
