#!/usr/bin/env bash
# Usage: validation_trial.sh A2A
# bench/validation.py --preset MACHINE=FILE judges a machine's claims on a trial platform file:
# the trend of ParLogNa against the vendor on fugaku at P = 512, once on the preset and once on
# the preset with its NIC time doubled, must give different predictions, and the trial's report
# must say which file it used; with --compare, list the claim against the preset's report.
set -u
a2a=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/^nic_message_time: [0-9.]*us/nic_message_time: 3.12us/' \
  "$root/platforms/presets/fugaku.yaml" > "$work/trial.yaml"
cmp -s "$root/platforms/presets/fugaku.yaml" "$work/trial.yaml" &&
  { echo "FAIL: the trial file is the preset (nic_message_time not found)"; exit 1; }
row() {  # the claim's a2a column
  /usr/bin/python3 "$root/bench/validation.py" --a2a "$a2a" --quick --only trend-vendor-fugaku \
    "$@" > "$work/report.md" || { echo "FAIL: validation.py $*" >&2; exit 1; }
  awk -F'|' '$2 ~ /trend-vendor-fugaku/ { gsub(/ /, "", $9); print $9 }' "$work/report.md"
}
preset=$(row) || exit 1
cp "$work/report.md" "$work/preset.md"
trial=$(row --preset "fugaku=$work/trial.yaml" --compare "$work/preset.md") || exit 1
echo "preset: $preset, trial: $trial"
[ -n "$preset" ] && [ -n "$trial" ] || { echo "FAIL: no prediction in a report"; exit 1; }
[ "$preset" != "$trial" ] || { echo "FAIL: the trial file did not change the prediction"; exit 1; }
grep -q "^Trial: fugaku's claims simulated on $work/trial.yaml, not on its preset.$" \
  "$work/report.md" || { echo "FAIL: the report does not name the trial file"; exit 1; }
# --compare: the claim that moved is listed against the preset's report.
grep -qF "| trend-vendor-fugaku | $preset, ok | $trial, ok |" "$work/report.md" ||
  { echo "FAIL: --compare does not list the claim that moved"; exit 1; }
grep -q "^1 of the 1 claims in both reports differ: 0 verdicts mended, 0 broken.$" \
  "$work/report.md" || { echo "FAIL: --compare's count"; exit 1; }
echo ok
