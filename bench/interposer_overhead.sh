#!/usr/bin/env bash
# Usage: bench/interposer_overhead.sh [BUILD_DIR] [PAIRS]
# The interposer's overhead (docs/performance.md): a2a_interposer_overhead on 2 ranks, one per
# core, without and with LD_PRELOAD=liba2a_pmpi.so (A2A_ALLTOALLV=vendor), alternating PAIRS times
# (default 5) per block size. One markdown row per block size, medians over the runs of:
# MPI_Alltoallv's time per call without and with the preload (across runs: the load of a shared
# machine moves it more than the interposer does), and the in-run difference MPI_Alltoallv −
# PMPI_Alltoallv (interleaved rounds, same load): the interposer's cost with the preload, noise
# without it (the control).
set -euo pipefail
build=${1:-build} pairs=${2:-5}
program=$build/a2a_interposer_overhead library=$(realpath "$build/liba2a_pmpi.so")
[ -x "$program" ] || { echo "interposer_overhead: error: $program not built" >&2; exit 2; }
run() {  # preload(0|1) block calls rounds -> "mpi_us pmpi_us diff_us"
  local preload=()
  [ "$1" = 1 ] && preload=(-x "LD_PRELOAD=$library")
  A2A_ALLTOALLV=vendor mpirun -np 2 --bind-to core --mca btl self,vader -x A2A_ALLTOALLV \
    "${preload[@]}" "$program" "$2" "$3" "$4" </dev/null |
    sed -n 's/.*mpi_us=\([^ ]*\) pmpi_us=\([^ ]*\) diff_us=\(.*\)/\1 \2 \3/p'
}
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
column() { awk -v c="$1" '{print $c}' | median; }
echo "| block | calls × rounds | no preload: MPI_Alltoallv µs/call | preloaded: MPI_Alltoallv µs/call | preloaded: MPI − PMPI in the same run | control (no preload): MPI − PMPI |"
echo "| --- | --- | --- | --- | --- | --- |"
for spec in "16 1000 301" "1048576 20 101"; do
  read -r block calls rounds <<<"$spec"
  plain="" loaded=""
  for _ in $(seq "$pairs"); do
    plain+="$(run 0 "$block" "$calls" "$rounds")"$'\n'
    loaded+="$(run 1 "$block" "$calls" "$rounds")"$'\n'
  done
  a=$(column 1 <<<"${plain%$'\n'}") b=$(column 1 <<<"${loaded%$'\n'}")
  d=$(column 3 <<<"${loaded%$'\n'}") c=$(column 3 <<<"${plain%$'\n'}")
  p=$(column 2 <<<"${loaded%$'\n'}")
  awk -v blk="$block" -v n="$calls × $rounds" -v a="$a" -v b="$b" -v d="$d" -v c="$c" -v p="$p" 'BEGIN {
    printf "| %s B | %s | %.3f | %.3f | %+.3f µs (%+.2f %%) | %+.3f µs |\n", blk, n, a, b, d, d / p * 100, c }'
done
