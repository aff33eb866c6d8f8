# Sourced by the GPU-machine studies: `step NAME LIMIT COMMAND...` runs COMMAND under `timeout
# LIMIT` with its output in $W/NAME.txt, then prints its exit status and the lines matching
# STEP_PATTERN (cut to STEP_WIDTH columns, at most STEP_LINES of them).
step() {
  local name=$1 limit=$2
  shift 2
  echo "== $name [$(date +%s)]"
  timeout "$limit" "$@" >"$W/$name.txt" 2>&1
  echo "rc $?"
  grep -E "$STEP_PATTERN" "$W/$name.txt" | cut -c1-"${STEP_WIDTH:-160}" | head -"${STEP_LINES:-60}"
}
