#!/usr/bin/env bash
# Usage: each_algorithm.sh A2A_MPI COMMAND... 
# Runs COMMAND with every algorithm of the catalog (`a2a-mpi list`, so new ones are covered)
# appended as arguments, with A2A_LOG=info. Passes when COMMAND exits 0 and, on rank 0, every
# algorithm either ran calls itself (its label in the summary) or logged why it fell back to the
# vendor (e.g. bitonic_inplace on P = 3): a run where a2a silently did nothing fails.
set -u
a2a_mpi=$1
shift
algorithms=$("$a2a_mpi" list | awk 'NR > 2 && NF == 0 {exit} NR > 2 {print $1}')
[ -n "$algorithms" ] || { echo "FAIL: no algorithm read from a2a-mpi list"; exit 1; }
output=$(A2A_LOG=info timeout 600 "$@" $algorithms 2>&1)
code=$?
echo "$output"
[ $code -eq 0 ] || { echo "FAIL: exit code $code"; exit 1; }
summary=$(grep -E "a2a: info: rank 0: MPI_Alltoallv?: " <<<"$output")
for algorithm in $algorithms; do
  if grep -Eq "[:,] [0-9]+ $algorithm( |,|$)" <<<"$summary"; then continue; fi
  if grep -q ": $algorithm.*using the vendor's call" <<<"$output"; then
    echo "note: $algorithm never applied here: $(grep -m1 ": $algorithm.*using the vendor's call" <<<"$output")"
    continue
  fi
  echo "FAIL: $algorithm neither ran nor logged a fallback"; exit 1
done
echo "ok: every algorithm ran or logged why not"
