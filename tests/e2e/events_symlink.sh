#!/usr/bin/env bash
# `--events FILE` never writes through a symbolic link: run and check refuse a link (to a file,
# or dangling) with exit 2 naming it, before anything is measured (the device's peaks are not
# measured into an empty cache folder), and the file it points to is left as it was, or never
# created. A plain file is appended to as before.
# Runs beside other tests: it asserts refusals, which come before anything is measured.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
WORK="$PERFGATE_E2E_TMP"
rm -rf "$WORK" && mkdir -p "$WORK/baselines"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
printf 'precious\n' >"$WORK/target.txt"
ln -s "$WORK/target.txt" "$WORK/events.jsonl"
ln -s "$WORK/nowhere.jsonl" "$WORK/dangling.jsonl"

for command in run check; do
  for link in events.jsonl dangling.jsonl; do
    rm -rf "$WORK/no-peaks" && mkdir -p "$WORK/no-peaks"
    out="$(timeout 60 "$PERFGATE" "$command" --kernel copy --axis n=4096 --backend cpu --baselines "$WORK/baselines" \
      --cache-dir "$WORK/no-peaks" --events "$WORK/$link" 2>&1)"
    rc=$?
    if [ "$rc" != 2 ] || ! grep -q "events $WORK/$link is a symbolic link" <<<"$out"; then
      bad "$command --events $link exited $rc (want 2 naming the link): $out"
    else
      echo "ok: $command --events $link: $(grep "symbolic link" <<<"$out")"
    fi
    [ -z "$(ls -A "$WORK/no-peaks")" ] || bad "$command --events $link measured before refusing"
    [ -L "$WORK/$link" ] || bad "$command replaced the link $link"
  done
done
[ "$(cat "$WORK/target.txt")" = precious ] || bad "the link's target was written: $(head -c 200 "$WORK/target.txt")"
[ ! -e "$WORK/nowhere.jsonl" ] || bad "the dangling link's target was created"
exit $fail
