#!/usr/bin/env bash
# Runs the same scenario twice and requires identical predictions (every column but wall time).
set -euo pipefail
a2a=$1
scenario=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$a2a" run "$scenario" --csv "$out/a.csv" > /dev/null
"$a2a" run "$scenario" --csv "$out/b.csv" > /dev/null
strip() { cut -d, -f1-13,15 "$1"; }  # drop simulator_wall_seconds (column 14)
rows=$(($(wc -l < "$out/a.csv") - 1))
[ "$rows" -ge 5 ] || { echo "FAIL: only $rows rows"; exit 1; }
if diff <(strip "$out/a.csv") <(strip "$out/b.csv"); then
  echo "ok: $rows configurations, identical predictions"
else
  echo "FAIL: predictions differ between two runs"; exit 1
fi
