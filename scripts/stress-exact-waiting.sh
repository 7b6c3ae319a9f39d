#!/usr/bin/env bash
# Runs the test store's exact-waiting stress suite (five shapes of work-before-sleep, 200 runs
# each) N times while two processes keep the CPU busy, as on a loaded CI machine, and fails if
# any run missed a sleeper. Run from the repository root after `swift build --build-tests`.
# usage: scripts/stress-exact-waiting.sh [N=5]
set -u
runs=${1:-5}
hogs=()
(while :; do :; done) & hogs+=($!)
(while :; do :; done) & hogs+=($!)
trap 'for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null; done' EXIT
failed=0
for i in $(seq 1 "$runs"); do
  log=$(mktemp)
  if swift test --skip-build --filter ExactWaitingTests >"$log" 2>&1; then
    echo "stress run $i: 1000 effects, 0 misses"
  else
    failed=$((failed + 1))
    echo "stress run $i: FAILED"
    grep -a -E "✘ Test .*recorded|↳" "$log" | head -5
  fi
  rm -f "$log"
done
echo "$failed/$runs stress runs failed (two CPU hogs running)"
[ "$failed" = 0 ]
