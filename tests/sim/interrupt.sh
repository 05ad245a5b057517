#!/usr/bin/env bash
# Usage: interrupt.sh A2A WHEN ARGS...
# A SIGINT during `a2a run ARGS... -v --csv FILE --json FILE` shows what finished and writes no
# output file: the run must exit 130 with one line saying how many configurations finished, print
# exactly those in its table, say under it on standard output that the run was interrupted, and
# leave neither file behind (one holding some of the configurations would read as the whole run).
#   WHEN = model: `a2a model ARGS... --csv FILE` instead, the signal sent once the first
#     simulation started: exit 130, one line, no CSV.
#   WHEN = started: the signal is sent once the first progress line shows the simulation started
#     (stderr is a file here: not a terminal, so progress comes as plain lines). The SimGrid engine
#     finishes the configuration in flight: 1 to all but one of them finished.
#   WHEN = first-done: the signal is sent once the first configuration has finished (-v's line
#     "...: predicted ..."), while the second runs. The scale engine abandons the configuration in
#     flight: exactly the first one finished.
set -u
a2a=$1
when=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $when in
  model)
    "$a2a" model "$@" --csv "$work/rows.csv" >"$work/out.txt" 2>"$work/err.txt" &
    pid=$!
    ready='^\[1/' ;;
  started) ready='^\[1/' ;;
  first-done) ready=': predicted ' ;;
  *) echo "FAIL: WHEN must be started, first-done or model, not '$when'"; exit 1 ;;
esac
if [ "$when" != model ]; then
  "$a2a" run "$@" -v --csv "$work/rows.csv" --json "$work/rows.json" >"$work/out.txt" \
    2>"$work/err.txt" &
  pid=$!
fi
for _ in $(seq 600); do
  grep -q "$ready" "$work/err.txt" && break
  sleep 0.1
done
grep -q "$ready" "$work/err.txt" || { cat "$work/err.txt"; echo "FAIL: never saw '$ready'"; exit 1; }
kill -INT $pid
wait $pid
code=$?
cat "$work/out.txt" "$work/err.txt"
echo "[exit code $code]"
[ $code -eq 130 ] || { echo "FAIL: expected exit code 130"; exit 1; }
if [ "$when" = model ]; then
  line='a2a model: interrupted: simulated [0-9]* of [0-9]* configurations .*; no output file written'
  [ "$(grep -c "$line" "$work/err.txt")" -eq 1 ] || { echo "FAIL: no interrupt line"; exit 1; }
  [ ! -e "$work/rows.csv" ] || { echo "FAIL: rows.csv written"; exit 1; }
  echo ok
  exit 0
fi
line='interrupted: [0-9]* of [0-9]* configurations finished (in the table above); no output file written'
[ "$(grep -c "$line" "$work/err.txt")" -eq 1 ] || { echo "FAIL: no interrupt line"; exit 1; }
for file in rows.csv rows.json; do
  [ ! -e "$work/$file" ] || { echo "FAIL: $file written"; exit 1; }
done
finished=$(sed -n 's/.*interrupted: \([0-9]*\) of [0-9]* configurations.*/\1/p' "$work/err.txt")
total=$(sed -n 's/.*interrupted: [0-9]* of \([0-9]*\) configurations.*/\1/p' "$work/err.txt")
[ "$(tail -n 1 "$work/out.txt")" = "(interrupted: $finished of $total configurations finished)" ] ||
  { echo "FAIL: standard output does not end saying the run was interrupted"; exit 1; }
shown=$(grep -cE '^[0-9]+ ' "$work/out.txt")
echo "$finished of $total finished, $shown in the table"
[ "$shown" -eq "$finished" ] || { echo "FAIL: the table shows $shown, not $finished"; exit 1; }
if [ "$when" = started ]; then
  [ "$finished" -ge 1 ] && [ "$finished" -lt "$total" ] ||
    { echo "FAIL: expected 1 to $((total - 1)) finished"; exit 1; }
else
  [ "$finished" -eq 1 ] || { echo "FAIL: expected the first configuration alone"; exit 1; }
fi
echo ok
