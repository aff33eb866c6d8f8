#!/usr/bin/env bash
# The shipped GitHub workflow is valid against GitHub's workflow schema: action-validator
# (installed by ci/install-ci-lint.sh) accepts ci/github/perfgate.yml, and refuses copies of it
# with a mistake planted (a permission's value, a step's key, a job's `needs` type), so that its
# acceptance means something. tests/ci/pipelines_test.cpp checks what each job does.
# Runs beside other tests: it only reads YAML.
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_E2E_TMP:?}"
rm -rf "$PERFGATE_E2E_TMP" && mkdir -p "$PERFGATE_E2E_TMP"
validator="${PERFGATE_CI_LINT_DIR:-$HOME/.cache/perfgate/ci-lint}/node_modules/.bin/action-validator"
[ -x "$validator" ] || validator="$(command -v action-validator || true)"
if [ -z "$validator" ]; then
  echo "action-validator not installed (ci/install-ci-lint.sh): skipping"
  exit 77
fi
workflow="$PERFGATE_SOURCE_DIR/ci/github/perfgate.yml"
if ! "$validator" "$workflow" >"$PERFGATE_E2E_TMP/valid.out" 2>&1; then
  cat "$PERFGATE_E2E_TMP/valid.out" >&2
  echo "FAIL: ci/github/perfgate.yml is not a valid GitHub workflow" >&2
  exit 1
fi
# Each mistake: a sed expression that plants it, and the line it must change.
mistakes=(
  's/^      pages: write .*/      pages: publish/'
  's/^        continue-on-error: true .*/        continue-on-errors: true/'
  's/^    needs: history$/    needs: {job: history}/'
)
for i in "${!mistakes[@]}"; do
  bad="$PERFGATE_E2E_TMP/mistake-$i.yml"
  sed "${mistakes[$i]}" "$workflow" >"$bad"
  if cmp -s "$workflow" "$bad"; then echo "FAIL: mistake $i (${mistakes[$i]}) planted nothing" >&2; exit 1; fi
  if "$validator" "$bad" >"$PERFGATE_E2E_TMP/mistake-$i.out" 2>&1; then
    echo "FAIL: action-validator accepted a workflow with a mistake: ${mistakes[$i]}" >&2
    exit 1
  fi
done
echo "ci_recipes_valid: ok"
