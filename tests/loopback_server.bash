# Sourced by the end-to-end libraries that run a python3 server on loopback
# (tests/notify/e2e_lib.bash, tests/ci/pr_comment_lib.bash): start one and wait for the port it
# writes (up to 120 s, never a fixed sleep), stop it. The caller defines `fail MESSAGE`.
SERVER_PID=""

# start_loopback_server PORT_FILE LOG COMMAND...: runs COMMAND in the background, its output in
# LOG; sets SERVER_PID, and PORT once the server has written it to PORT_FILE.
start_loopback_server() {
  local port_file="$1" log="$2"; shift 2
  rm -f "$port_file"
  "$@" >"$log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 1200); do
    [ -s "$port_file" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || fail "the loopback server exited early (its log: $log)"
    sleep 0.1
  done
  [ -s "$port_file" ] || fail "the loopback server did not report its port"
  PORT="$(cat "$port_file")"
}

stop_loopback_server() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}
