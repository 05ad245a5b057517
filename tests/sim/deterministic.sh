#!/usr/bin/env bash
# Runs the same scenario twice and requires identical predictions (every column but wall time).
# Usage: deterministic.sh A2A SCENARIO ["FIRST RUN'S --set ARGS" ["SECOND RUN'S --set ARGS"]]
# (each a space-separated list, e.g. "--set engine=scale --set simulation.threads=1")
set -euo pipefail
a2a=$1
scenario=$2
read -r -a first <<< "${3:-}"
read -r -a second <<< "${4:-${3:-}}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$a2a" run "$scenario" "${first[@]}" --csv "$out/a.csv" > /dev/null
"$a2a" run "$scenario" "${second[@]}" --csv "$out/b.csv" > /dev/null
# Every column but simulator_wall_seconds (found by name: the schema is docs/scenarios.md's).
strip() {
  python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
wall = rows[0].index("simulator_wall_seconds")
for row in rows:
    print(",".join(row[:wall] + row[wall + 1:]))' "$1"
}
rows=$(($(wc -l < "$out/a.csv") - 1))
[ "$rows" -ge 5 ] || { echo "FAIL: only $rows rows"; exit 1; }
if diff <(strip "$out/a.csv") <(strip "$out/b.csv"); then
  echo "ok: $rows configurations, identical predictions"
else
  echo "FAIL: predictions differ between two runs"; exit 1
fi
