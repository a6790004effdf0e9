# Steps of a CI run (sourced by .ci/run): `step <name> <command…>` runs a step
# and records its failure without stopping the run; `finish` prints which
# steps failed, then, as the run's last line, the test runner's own summary
# (`N passed, N failed[, N skipped]`, from vitest's JSON report at
# $CI_REPORT), and exits 1 when any step failed.
CI_FAILED=()
CI_REPORT="${CI_REPORT:-.herald/ci/vitest.json}"

step() {
  local name=$1
  shift
  echo "== $name"
  if ! "$@"; then
    echo "== $name FAILED"
    CI_FAILED+=("$name")
  fi
}

finish() {
  local node="${HERALD_NODE:-node_modules/.bin/node}"
  ((${#CI_FAILED[@]} > 0)) && echo "== failed steps: ${CI_FAILED[*]}"
  if [[ -x "$node" ]] && "$node" --version >/dev/null 2>&1; then
    "$node" scripts/ci/summary.ts "$CI_REPORT" || echo "0 passed, 0 failed"
  else
    # No Node 24 (npm ci failed): nothing ran.
    echo "0 passed, 0 failed"
  fi
  ((${#CI_FAILED[@]} == 0))
}
