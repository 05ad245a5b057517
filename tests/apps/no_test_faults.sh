#!/usr/bin/env bash
# Usage: no_test_faults.sh FILE...
# Passes when none of the shipped binaries named (liba2a_pmpi.so, liba2a_mpi.so, a2a-mpi) contains
# the test-only fault injection of tests/mpi/fault_injection.cpp: neither its environment variable
# nor its code (symbols of its classes).
set -u
status=0
for file in "$@"; do
  [ -f "$file" ] || { echo "FAIL: $file: no such file"; exit 1; }
  if grep -aq -e A2A_MPI_TEST_FAULT -e drop_send "$file"; then
    echo "FAIL: $file contains the test-only fault injection's variable"; status=1
  fi
  if nm -C "$file" 2>/dev/null | grep -Eq "FaultyComm|FaultHooks"; then
    echo "FAIL: $file contains the test-only fault injection's code"; status=1
  fi
  [ $status -eq 0 ] && echo "ok: $file has no test fault injection"
done
exit $status
