#!/usr/bin/env bash
# Two a2a binaries on one scenario at the same time, one per core, then again with their places
# swapped: on a host whose speed drifts by tens of percent within an hour (docs/performance.md),
# runs made at the same time are the fair comparison. Prints one Markdown row per round: each
# binary's simulation wall time (from its --json) and prediction for the scenario's first
# configuration, and B / A.
# Usage: bench/side_by_side.sh A2A_A A2A_B SCENARIO.yaml [ROUNDS=2]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: bench/side_by_side.sh A2A_A A2A_B SCENARIO.yaml [ROUNDS]" >&2
  exit 2
fi
a=$1 b=$2 scenario=$3 rounds=${4:-2}
for f in "$a" "$b"; do
  [ -x "$f" ] || { echo "side_by_side.sh: $f: not an executable" >&2; exit 2; }
done
[ -r "$scenario" ] || { echo "side_by_side.sh: $scenario: cannot read" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # BINARY OUT.json
  "$1" run "$scenario" --json "$2" --set simulation.threads=1 > /dev/null 2> "$2.err" ||
    { echo "side_by_side.sh: $1 failed: $(head -c 300 "$2.err")" >&2; return 1; }
}
echo "| round | A sim wall | B sim wall | B / A | A predicted | B predicted |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
for round in $(seq "$rounds"); do
  # Odd rounds start A first, even rounds B first.
  if [ $((round % 2)) -eq 1 ]; then
    run "$a" "$work/a.json" & first=$!; run "$b" "$work/b.json" & second=$!
  else
    run "$b" "$work/b.json" & first=$!; run "$a" "$work/a.json" & second=$!
  fi
  wait $first && wait $second || exit 1
  python3 - "$work/a.json" "$work/b.json" "$round" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["results"][0]
b = json.load(open(sys.argv[2]))["results"][0]
wa, wb = a["simulator_wall_seconds"], b["simulator_wall_seconds"]
print(f"| {sys.argv[3]} | {wa:.2f} s | {wb:.2f} s | {wb / wa:.3f} | {a['predicted_seconds']:.6g} s | "
      f"{b['predicted_seconds']:.6g} s |")
PY
done
