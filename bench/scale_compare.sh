#!/usr/bin/env bash
# Two builds of the scale engine side by side (issue 15, item 4): for every platform and
# configuration, one `a2a run` with the BEFORE build, then one with the AFTER build (alternated, so
# that drift of the machine hits both alike), measured by bench/sim_scaling.sh. Prints one Markdown
# row per configuration: both simulation wall times, both messages per second, the speed-up, and
# whether the predictions agree to the last digit printed.
# Usage: [TARGETS="parlogna:radix=2 ..."] [PLATFORMS="polaris_scaled fugaku"] [RANKS_PER_NODE=32]
#        bench/scale_compare.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR [TIMEOUT_SECONDS] [P]
set -uo pipefail
here=$(dirname "$0")
if [ $# -lt 2 ]; then
  echo "usage: bench/scale_compare.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR [TIMEOUT_SECONDS] [P]" >&2
  exit 2
fi
before=$1
after=$2
limit=${3:-600}
P=${4:-32768}
for build in "$before" "$after"; do
  if [ ! -x "$build/a2a" ]; then
    echo "bench/scale_compare.sh: $build/a2a: no such executable" >&2
    exit 2
  fi
done
targets=${TARGETS:-"parlogna:radix=2 parlogna:radix=4 parlogna:radix=16 two_phase_bruck padded_bruck"}
echo "| platform | P | configuration | predicted (before, after) | sim wall before | after | messages/s before | after | speed-up |"
echo "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for platform in ${PLATFORMS:-polaris_scaled fugaku}; do
  for algo in $targets; do
    rows=()
    for build in "$before" "$after"; do
      rows+=("$(ENGINE=scale PLATFORM=$platform RANKS_PER_NODE=${RANKS_PER_NODE:-32} ALGOS=$algo \
        NO_HEADER=1 "$here/sim_scaling.sh" "$build" "$limit" "$P")")
    done
    python3 - "${rows[0]}" "${rows[1]}" <<'PY'
import sys
def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]
b, a = cells(sys.argv[1]), cells(sys.argv[2])
# sim_scaling.sh columns: engine, platform, P, configuration, predicted, rounds, messages,
# sim wall, process wall, messages/s, peak RSS
def seconds(c):
    return float(c[7].split()[0]) if c[7] else None
sb, sa = seconds(b), seconds(a)
ratio = f"{sb / sa:.2f}x" if sb and sa else "n/a"
same = "same" if b[4] == a[4] else "differ"
print(f"| {b[1]} | {b[2]} | {b[3]} | {b[4]}, {a[4]} ({same}) | {b[7] or b[8]} | {a[7] or a[8]} | "
      f"{b[9]} | {a[9]} | {ratio} |")
PY
  done
done
