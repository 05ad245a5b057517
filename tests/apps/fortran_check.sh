#!/usr/bin/env bash
# Usage: fortran_check.sh A2A_MPI LIBA2A_PMPI RANKS FORTRAN_CHECK
# Runs the Fortran test program (fortran_check.f90) on RANKS ranks under liba2a_pmpi.so once per
# algorithm of the catalog (`a2a-mpi list`, so new ones are covered): A2A_ALLTOALLV and
# A2A_ALLTOALL both set to it (a uniform-only algorithm: A2A_ALLTOALL only), once with vendor, and
# MPI initialised alternately through `use mpi` (MPI_THREAD_MULTIPLE) and `use mpi_f08`
# (MPI_Init). Passes when every run exits 0 with every received element right and, on rank 0
# (A2A_LOG=info), every collective set to an algorithm shows all its calls — MPI_Alltoall(v) 4
# (2 through `use mpi`, 2 through `use mpi_f08`: both bindings intercepted), MPI_Ialltoall(v) 2 —
# run by that algorithm or fallen back to the vendor's call with the reason logged (non-blocking
# calls below MPI_THREAD_MULTIPLE, bitonic_inplace at P = 3).
set -u
a2a_mpi=$1 library=$2 ranks=$3 program=$4
catalog=$("$a2a_mpi" list | awk 'NR > 2 && NF == 0 {exit} NR > 2 {print $1, $3}')
[ -n "$catalog" ] || { echo "FAIL: no algorithm read from a2a-mpi list"; exit 1; }
run=0
while read -r algorithm blocks; do
  v_spec=$algorithm
  [ "$blocks" = uniform ] && v_spec=vendor
  binding=mpi_f08
  [ $((run % 2)) -eq 0 ] && binding=mpi
  run=$((run + 1))
  output=$(A2A_ALLTOALLV=$v_spec A2A_ALLTOALL=$algorithm A2A_LOG=info LD_PRELOAD=$library \
    timeout 120 mpirun --oversubscribe --mca btl self,vader -np "$ranks" \
    -x LD_PRELOAD -x A2A_ALLTOALLV -x A2A_ALLTOALL -x A2A_LOG "$program" $binding 2>&1 </dev/null)
  code=$?
  echo "== $algorithm (MPI_Alltoallv: $v_spec, initialised through use $binding)"
  echo "$output"
  [ $code -eq 0 ] || { echo "FAIL: $algorithm: exit code $code"; exit 1; }
  grep -q "fortran_check: 12 passed, 0 failed" <<<"$output" || { echo "FAIL: $algorithm"; exit 1; }
  [ "$algorithm" = vendor ] && continue
  for triple in "MPI_Alltoallv $v_spec 4" "MPI_Alltoall $algorithm 4" \
    "MPI_Ialltoallv $v_spec 2" "MPI_Ialltoall $algorithm 2"; do
    read -r collective name calls <<<"$triple"
    [ "$name" = vendor ] && continue
    line=$(grep -E "a2a: info: rank 0: $collective: $calls calls: " <<<"$output")
    reason=$(grep -m1 "a2a: info: $collective: .*using the vendor's call" <<<"$output")
    # Each part of the summary ("2 parlogna radix=2, 2 vendor (fallback)") must be the algorithm,
    # or a fallback whose reason was logged.
    parts=${line#*calls: }
    bad=$([ -n "$line" ] && tr ',' '\n' <<<"$parts" | sed 's/^ *[0-9]* //' |
      grep -Ev "^$name( |$)" | grep -Ev "^vendor \(fallback\)$")
    if [ -n "$line" ] && [ -z "$bad" ] && { [ -n "$reason" ] || ! grep -q fallback <<<"$line"; }; then
      [ -n "$reason" ] && echo "note: $algorithm on $collective: $reason"
      continue
    fi
    echo "FAIL: $algorithm did not run the $calls Fortran $collective calls (summary: ${line:-none})"
    exit 1
  done
done <<<"$catalog"
echo "ok: every algorithm ran the Fortran calls of both bindings (or logged why not) at P=$ranks"
