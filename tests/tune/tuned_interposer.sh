#!/usr/bin/env bash
# Usage: tuned_interposer.sh LIBA2A_PMPI TABLE EXPECTED UNEXPECTED RANKS COMMAND...
# Runs COMMAND under mpirun with liba2a_pmpi.so preloaded and A2A_TUNING=TABLE (a table written by
# `a2a tune --table`; A2A_ALLTOALLV defaults to auto). Passes when COMMAND exits 0 and rank 0's
# summary (A2A_LOG=info) shows MPI_Alltoallv calls run by the configuration labelled EXPECTED
# (e.g. "parlogna radix=2") and none by UNEXPECTED (the table's choice for other block sizes; "-":
# no such check).
set -u
library=$1 table=$2 expected=$3 unexpected=$4 ranks=$5
shift 5
output=$(A2A_TUNING=$table A2A_LOG=info LD_PRELOAD=$library \
  timeout 300 mpirun --oversubscribe -np "$ranks" -x LD_PRELOAD -x A2A_TUNING -x A2A_LOG "$@" 2>&1)
code=$?
echo "$output"
[ $code -eq 0 ] || { echo "FAIL: exit code $code"; exit 1; }
line=$(grep -E "a2a: info: rank 0: MPI_Alltoallv: [0-9]+ calls" <<<"$output")
calls=${line#*calls:}
if ! grep -Eq "(^|,) *[0-9]+ $expected(,|$)" <<<"$calls"; then
  echo "FAIL: '$expected' ran no MPI_Alltoallv call (summary: ${line:-none})"; exit 1
fi
if [ "$unexpected" != "-" ] && grep -Eq "(^|,) *[0-9]+ $unexpected(,|$)" <<<"$calls"; then
  echo "FAIL: '$unexpected' ran MPI_Alltoallv calls (summary: $line)"; exit 1
fi
echo "ok: the table chose $expected for these calls"
