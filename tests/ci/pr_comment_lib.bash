# Shared by tests/e2e/pr_comment_*.sh: a scratch folder, a results file with hostile strings
# planted in it, the loopback forge (forge_receiver.py) and what every request to it must have
# been. Sourced, not run: its name does not end in .sh, so CTest does not pick it up as a test.
set -euo pipefail

command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipping"; exit 77; }
: "${PERFGATE:?PERFGATE must name the perfgate binary}"
: "${PERFGATE_SOURCE_DIR:?PERFGATE_SOURCE_DIR must name the source tree}"
CI_TESTS="$PERFGATE_SOURCE_DIR/tests/ci"
POSTER="$PERFGATE_SOURCE_DIR/ci/pr_comment.py"
WORK="${PERFGATE_E2E_TMP:-$(mktemp -d)}"
rm -rf "$WORK"
mkdir -p "$WORK"
# Nothing from the caller's environment may steer the poster.
unset GITHUB_TOKEN GITHUB_REPOSITORY GITHUB_API_URL GITHUB_EVENT_PATH GITHUB_ACTIONS PERFGATE_PR_NUMBER \
      PERFGATE_GITLAB_TOKEN CI_JOB_TOKEN CI_API_V4_URL CI_PROJECT_ID CI_MERGE_REQUEST_IID || true
TOKEN="tok$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
REQUESTS="$WORK/requests.jsonl"
STATE="$WORK/comments.json"
DASHBOARD="https://perf.example/kernels"

fail() {
  echo "FAIL: $*" >&2
  for f in "$WORK"/*.out "$WORK"/*.err "$WORK"/forge*.log; do
    [ -f "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }
  done
  [ -f "$REQUESTS" ] && { echo "--- requests" >&2; cut -c1-300 "$REQUESTS" >&2; }
  exit 1
}

source "$PERFGATE_SOURCE_DIR/tests/loopback_server.bash"
trap stop_loopback_server EXIT

# start_forge [forge_receiver.py args...]: a fresh forge (no requests, no comments yet).
start_forge() {
  stop_loopback_server
  rm -f "$REQUESTS" "$STATE"
  start_loopback_server "$WORK/port" "$WORK/forge.log" python3 "$CI_TESTS/forge_receiver.py" --token "$TOKEN" \
    --port-file "$WORK/port" --requests "$REQUESTS" --state "$STATE" "$@"
}

# results NAME RUN_ID VERDICT: the notify fixture as run RUN_ID, its first case's verdict
# VERDICT, with a hostile case id, machine id, branch and reason.
results() {
  python3 - "$PERFGATE_SOURCE_DIR/tests/notify/fixtures/run_mixed.json" "$WORK/$1.json" "$2" "$3" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
run["run_id"] = sys.argv[3]
run["fingerprint"]["machine_id"] = "gpu|<b>@all"
run["branch"] = "feature`x\n## not a heading"
case = run["cases"][0]
case["id"] = "copy|x/<script>alert(1)</script>/[x](https://evil.example)/@channel/\nnext/\x1b[31m"
case["verdict"] = sys.argv[4]
case["message"] = "see [x](https://evil.example) @channel <img src=x onerror=alert(1)>\nline two \x1b[0m #12"
json.dump(run, open(sys.argv[2], "w"))
PY
}

# comment_body NAME: perfgate's comment on results NAME, into NAME.md.
comment_body() {
  "$PERFGATE" report "$WORK/$1.json" --pr-comment "$WORK/$1.md" --dashboard-url "$DASHBOARD" \
    >"$WORK/report-$1.out" 2>"$WORK/report-$1.err" || fail "perfgate report --pr-comment of $1"
}

# post NAME KIND [VAR=value...]: the poster on NAME.md, its output in post-NAME.out/.err, RC set.
post() {
  local name="$1" kind="$2"; shift 2
  set +e
  env "$@" python3 "$POSTER" "$kind" "$WORK/$name.md" >"$WORK/post-$name.out" 2>"$WORK/post-$name.err"
  RC=$?
  set -e
}

# The token never appears in what the poster printed.
check_no_token() {
  local f
  for f in "$WORK"/post-*.out "$WORK"/post-*.err; do
    if grep -qF -- "$TOKEN" "$f"; then fail "the token appears in $f"; fi
  done
}

# check_requests EXPECTED: the methods and paths of the requests since the forge started, one
# "METHOD PATH" per line (a path may end in * for an id), each answered without a problem.
check_requests() {
  python3 - "$REQUESTS" "$1" <<'PY' || fail "the requests were not what the REST documentation describes"
import fnmatch, json, sys
seen = [json.loads(line) for line in open(sys.argv[1])]
expected = [line.split(" ", 1) for line in sys.argv[2].strip().splitlines()]
for entry in seen:
    if entry["problem"]:
        sys.exit(f"{entry['method']} {entry['path']} was refused {entry['status']}: {entry['problem']}")
got = [f"{e['method']} {e['path']}" for e in seen]
if len(got) != len(expected) or not all(
        g.split(" ", 1)[0] == m and fnmatch.fnmatchcase(g.split(" ", 1)[1], p) for g, (m, p) in zip(got, expected)):
    sys.exit(f"requests {got}, expected {[' '.join(e) for e in expected]}")
PY
}

# check_one_comment BODY_FILE AUTHOR_KEY: exactly one comment starts with the marker, written by
# the poster, its body BODY_FILE byte for byte; the comment quoting the marker is untouched.
check_one_comment() {
  python3 - "$STATE" "$1" <<'PY' || fail "the forge does not hold exactly one perfgate comment with the body written"
import json, sys
comments = json.load(open(sys.argv[1]))
body = open(sys.argv[2], encoding="utf-8").read()
marker = body.split("\n", 1)[0]
ours = [c for c in comments if c["body"].startswith(marker + "\n")]
assert len(ours) == 1, f"{len(ours)} comments start with the marker"
assert ours[0]["body"] == body, "the comment's body is not the file perfgate wrote"
quoted = [c for c in comments if c["body"].startswith("> " + marker)]
assert len(quoted) == 1 and "Why did this regress?" in quoted[0]["body"], "the person's comment quoting it was changed"
print(ours[0]["id"])
PY
}
