#!/usr/bin/env bash
# Usage: intercepted.sh ALLTOALLV_SPEC ALLTOALL_SPEC LIBA2A_PMPI RANKS COMMAND...
# Runs COMMAND under mpirun with liba2a_pmpi.so preloaded and A2A_ALLTOALLV / A2A_ALLTOALL set
# (a spec "auto=NAME" sets auto, for A2A_TUNING, and expects the table to choose NAME).
# Passes when COMMAND exits 0 and the interposer's summary on rank 0 (A2A_LOG=info) shows that
# the named algorithms themselves ran MPI_Alltoallv and MPI_Alltoall calls, and MPI_Ialltoallv and
# MPI_Ialltoall calls, or (non-blocking only) fell back with a logged reason: a test whose calls
# all bypassed a2a, or silently fell back to the vendor, fails.
set -u
v_spec=$1 spec=$2 library=$3 ranks=$4
shift 4
v_name=${v_spec#auto=} name=${spec#auto=}
[ "$v_name" = "$v_spec" ] || v_spec=auto
[ "$name" = "$spec" ] || spec=auto
output=$(A2A_ALLTOALLV=$v_spec A2A_ALLTOALL=$spec A2A_LOG=info LD_PRELOAD=$library \
  timeout 300 mpirun --oversubscribe -np "$ranks" \
  -x LD_PRELOAD -x A2A_ALLTOALLV -x A2A_ALLTOALL -x A2A_LOG "$@" 2>&1)
code=$?
echo "$output"
[ $code -eq 0 ] || { echo "FAIL: exit code $code"; exit 1; }
for pair in "MPI_Alltoallv:${v_name%%:*}" "MPI_Alltoall:${name%%:*}" \
  "MPI_Ialltoallv:${v_name%%:*}" "MPI_Ialltoall:${name%%:*}"; do
  collective=${pair%%:*} name=${pair#*:}
  line=$(grep -E "a2a: info: rank 0: $collective: [0-9]+ calls" <<<"$output")
  if grep -Eq "[, ] *[0-9]+ $name( |,|$)" <<<"${line#*calls:}"; then continue; fi
  # A non-blocking call may go to the vendor, but only with the reason logged (A2A_LOG=info).
  reason=$(grep -m1 "a2a: info: $collective: .*using the vendor's call" <<<"$output")
  if [[ $collective == MPI_I* ]] && [ -n "$reason" ] && grep -q "vendor (fallback)" <<<"$line"; then
    echo "note: ${reason#a2a: info: }"; continue
  fi
  echo "FAIL: $name did not run any $collective call (summary: ${line:-none})"; exit 1
done
echo "ok: the calls went through $v_name (MPI_Alltoallv) and $name (MPI_Alltoall)"
