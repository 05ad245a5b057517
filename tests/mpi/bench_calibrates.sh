#!/usr/bin/env bash
# What `a2a-mpi bench --csv` writes on a machine is a measured-times file `a2a calibrate` reads as
# it is (docs/calibration.md): bench 4 ranks on one node, then fit the laptop preset's per-message
# overhead to those times; the calibrated platform must load and run.
# Usage: bench_calibrates.sh MPIRUN... -- A2A_MPI A2A
set -euo pipefail
mpirun=()
while [ "$1" != "--" ]; do mpirun+=("$1"); shift; done
shift
a2a_mpi=$1
a2a=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"${mpirun[@]}" -np 4 "$a2a_mpi" bench -a parlogna -a scattered --workload uniform:max=256 \
  --iterations 5 --csv "$out/measured.csv" > /dev/null
head -1 "$out/measured.csv" | grep -q '^P,ranks_per_node,' || { echo "FAIL: bench CSV header"; exit 1; }
"$a2a" calibrate "$out/measured.csv" --platform laptop --fit message_overhead --iterations 4 \
  -o "$out/laptop_calibrated.yaml"
grep -q '^message_overhead: .*# calibrated' "$out/laptop_calibrated.yaml" ||
  { echo "FAIL: no calibrated message_overhead"; exit 1; }
"$a2a" run --set "platform=$out/laptop_calibrated.yaml" --set ranks=4 \
  --set 'algorithms=[parlogna:radix=2]' > /dev/null
echo "ok: bench's CSV calibrated the laptop preset"
