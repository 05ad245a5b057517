#!/usr/bin/env bash
# Usage: record_replay.sh LIBA2A_PMPI A2A FFTW_TRANSFORM P SHAPE...
# The recording-to-simulation loop on a real application: FFTW's DFTs run with liba2a_pmpi.so and
# A2A_RECORD=DIR; every recorded file must be a P x P byte matrix whose total is one shape's whole
# array (a transpose moves every complex double once: 16 bytes × N0 × N1 [× N2]), with its call
# count; then `a2a run` replays each file on the embedded default scenario's machine model with
# payload checking on, and every configuration must pass.
set -u
library=$1 a2a=$2 program=$3 ranks=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
A2A_RECORD=$work/record A2A_LOG=info LD_PRELOAD=$library \
  timeout 300 mpirun --oversubscribe -np "$ranks" -x LD_PRELOAD -x A2A_RECORD -x A2A_LOG \
  "$program" "$work/out.bin" "$@" || { echo "FAIL: the recorded run failed"; exit 1; }
totals=" "
for shape in "$@"; do totals+="$((16 * ${shape//x/*})) "; done
files=("$work"/record/*.csv)
[ -e "${files[0]}" ] || { echo "FAIL: nothing recorded in $work/record"; exit 1; }
for file in "${files[@]}"; do
  name=$(basename "$file")
  head -4 "$file"
  rows=$(grep -vc '^#' "$file")
  total=$(grep -v '^#' "$file" | tr ',' '\n' | awk '{s += $1} END {print s}')
  columns=$(grep -v '^#' "$file" | awk -F, '{print NF}' | sort -u)
  calls=$(sed -n 's/^# calls with exactly this matrix: //p' "$file")
  if [ "$rows" -ne "$ranks" ] || [ "$columns" != "$ranks" ]; then
    echo "FAIL $name: not a $ranks x $ranks matrix"; exit 1
  fi
  if [[ "$totals" != *" $total "* ]]; then
    echo "FAIL $name: $total bytes in all, expected one of:$totals"; exit 1
  fi
  [ "${calls:-0}" -ge 1 ] || { echo "FAIL $name: no call count"; exit 1; }
  replay=$(timeout 300 "$a2a" run --set ranks="$ranks" --set "workload=matrix:file=$file,elem=1" \
    --set 'algorithms=[vendor, spread_out, {name: parlogna, radix: 2}, two_phase_bruck, {name: parlinna_coalesced, ranks_per_node: 1}]' \
    --set simulation.payload=true 2>&1)
  code=$?
  echo "$replay"
  passes=$(grep -cE '^[0-9]+ .* pass( |$)' <<<"$replay")
  if [ $code -ne 0 ] || [ "$passes" -ne 5 ]; then
    echo "FAIL $name: replay exit code $code, $passes of 5 configurations passed"; exit 1
  fi
  echo "ok   $name: $ranks x $ranks, $total bytes, $calls calls, replayed: 5 configurations pass"
done
echo "record and replay: ${#files[@]} patterns recorded and replayed"
