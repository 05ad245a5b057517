#!/usr/bin/env bash
# Usage: interrupt.sh A2A ARGS...
# A SIGINT during `a2a run ARGS... --csv FILE` keeps what finished: the signal is sent once the
# first progress line shows the simulation started (stderr is a file here: not a terminal, so
# progress comes as plain lines); the run must then exit 130 with one line saying so, and FILE
# must hold the finished configurations (at least the one in flight, not all of them).
set -u
a2a=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$a2a" run "$@" --csv "$work/rows.csv" >"$work/out.txt" 2>"$work/err.txt" &
pid=$!
for _ in $(seq 600); do
  grep -q '^\[1/' "$work/err.txt" && break
  sleep 0.1
done
grep -q '^\[1/' "$work/err.txt" || { cat "$work/err.txt"; echo "FAIL: no progress line"; exit 1; }
kill -INT $pid
wait $pid
code=$?
cat "$work/err.txt"
echo "[exit code $code]"
[ $code -eq 130 ] || { echo "FAIL: expected exit code 130"; exit 1; }
[ "$(grep -c 'interrupted: kept the' "$work/err.txt")" -eq 1 ] || { echo "FAIL: no interrupt line"; exit 1; }
[ -f "$work/rows.csv" ] || { echo "FAIL: no CSV written"; exit 1; }
rows=$(($(wc -l <"$work/rows.csv") - 1))
total=$(sed -n 's/.*kept the [0-9]* of \([0-9]*\) configurations.*/\1/p' "$work/err.txt")
echo "$rows of $total rows written"
[ "$rows" -ge 1 ] && [ "$rows" -lt "$total" ] || { echo "FAIL: expected 1 to $((total - 1)) rows"; exit 1; }
echo ok
