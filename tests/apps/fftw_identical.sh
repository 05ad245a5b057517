#!/usr/bin/env bash
# Usage: fftw_identical.sh A2A_MPI LIBA2A_PMPI FFTW_TRANSFORM P SHAPE...
# FFTW's distributed DFTs (fftw_transform) with and without liba2a_pmpi.so preloaded, once per
# non-uniform algorithm of the catalog (read from `a2a-mpi list`, so new algorithms are covered):
# the results must be identical byte for byte to the vendor run's, and the interposer's summary
# (A2A_LOG=info) must show that the algorithm itself ran every MPI_Alltoall(v) call — or, for an
# algorithm whose conditions FFTW's exchange does not meet, that every call fell back to the
# vendor with the reason logged. Fails if nothing was intercepted (never a vacuous pass).
set -u
a2a_mpi=$1 library=$2 program=$3 ranks=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { timeout 300 mpirun --oversubscribe -np "$ranks" "$@"; }

run "$program" "$work/vendor.bin" "$@" || { echo "FAIL: the vendor run failed"; exit 1; }
# Algorithms that handle any exchange (blocks column "any"), vendor excluded.
algorithms=$("$a2a_mpi" list | awk '$3 == "any" && $2 != "vendor" {print $1}')
[ -n "$algorithms" ] || { echo "FAIL: no algorithm read from a2a-mpi list"; exit 1; }
algorithms="$algorithms parlogna:radix=3"  # a radix other than the default
failures=0 ran=0
for algorithm in $algorithms; do
  log="$work/${algorithm//[:=]/_}.log" result="$work/${algorithm//[:=]/_}.bin"
  A2A_ALLTOALLV=$algorithm A2A_ALLTOALL=$algorithm A2A_LOG=info LD_PRELOAD=$library \
    run -x LD_PRELOAD -x A2A_ALLTOALLV -x A2A_ALLTOALL -x A2A_LOG \
    "$program" "$result" "$@" >"$log" 2>&1
  code=$?
  summary=$(grep -E "a2a: info: rank 0: MPI_Alltoallv?: " "$log")
  # A setting that can never apply on this P (bitonic_inplace on P = 3) is refused at MPI_Init.
  refused=$(grep "a2a: error: A2A_ALLTOALLV=$algorithm on MPI_COMM_WORLD" "$log")
  if [ $code -eq 2 ] && [ "$(grep -c "error:" "$log")" -eq 1 ] && [ -n "$refused" ]; then
    echo "ok   $algorithm: refused at MPI_Init: ${refused#a2a: error: }"; continue
  fi
  if [ $code -ne 0 ]; then
    echo "FAIL $algorithm: exit code $code"; cat "$log"; failures=$((failures + 1)); continue
  fi
  if ! cmp -s "$work/vendor.bin" "$result"; then
    echo "FAIL $algorithm: the result differs from the vendor run's"; failures=$((failures + 1))
    continue
  fi
  if [ -z "$summary" ]; then
    echo "FAIL $algorithm: no MPI_Alltoall(v) call went through the interposer"; cat "$log"
    failures=$((failures + 1)); continue
  fi
  if grep -q "fallback" <<<"$summary"; then
    reason=$(grep "using the vendor's call" "$log" | head -1)
    if [ -z "$reason" ]; then
      echo "FAIL $algorithm: fell back to the vendor without a logged reason"; cat "$log"
      failures=$((failures + 1)); continue
    fi
    echo "ok   $algorithm: identical (vendor fallback: ${reason#a2a: info: })"
  else
    ran=$((ran + 1))
    echo "ok   $algorithm: identical; ${summary//$'\n'/; }"
  fi
done
echo "fftw, P=$ranks: $ran algorithms ran FFTW's transposes, $failures failed"
[ $ran -gt 0 ] || { echo "FAIL: no algorithm ran (all fell back)"; exit 1; }
[ $failures -eq 0 ]
