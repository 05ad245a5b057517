#!/usr/bin/env bash
# Usage: interrupt.sh A2A WHEN ARGS...
# A SIGINT during `a2a run ARGS... -v --csv FILE` keeps what finished: the run must exit 130 with
# one line saying so, and FILE must hold the configurations that finished and no other.
#   WHEN = started: the signal is sent once the first progress line shows the simulation started
#     (stderr is a file here: not a terminal, so progress comes as plain lines). The SimGrid engine
#     finishes the configuration in flight: FILE holds 1 to all but one of them.
#   WHEN = first-done: the signal is sent once the first configuration has finished (-v's line
#     "...: predicted ..."), while the second runs. The scale engine abandons the configuration in
#     flight: FILE holds exactly the first one.
set -u
a2a=$1
when=$2
shift 2
case $when in
  started) ready='^\[1/' ;;
  first-done) ready=': predicted ' ;;
  *) echo "FAIL: WHEN must be started or first-done, not '$when'"; exit 1 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$a2a" run "$@" -v --csv "$work/rows.csv" >"$work/out.txt" 2>"$work/err.txt" &
pid=$!
for _ in $(seq 600); do
  grep -q "$ready" "$work/err.txt" && break
  sleep 0.1
done
grep -q "$ready" "$work/err.txt" || { cat "$work/err.txt"; echo "FAIL: never saw '$ready'"; exit 1; }
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
if [ "$when" = started ]; then
  [ "$rows" -ge 1 ] && [ "$rows" -lt "$total" ] || { echo "FAIL: expected 1 to $((total - 1)) rows"; exit 1; }
else
  [ "$rows" -eq 1 ] || { echo "FAIL: expected the first configuration alone"; exit 1; }
  grep -q "kept the 1 of $total configurations" "$work/err.txt" || { echo "FAIL: interrupt line"; exit 1; }
fi
echo ok
