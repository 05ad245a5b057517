#!/usr/bin/env bash
# Usage: ompi_rules.sh A2A_MPI MPIEXEC RULES P_FIRST P_SECOND
# Proves that Open MPI's coll/tuned reads a rules file written by `a2a tune --ompi` and applies its
# communicator-size ranges as a2a meant them. Open MPI 4.1 says nothing when it ignores a rules
# file (the reader's messages are compiled out of release builds) and falls back to its fixed
# rules, so the proof is behavioural, with `a2a-mpi bench --algorithm vendor` (MPI_Alltoallv):
#   1. the file as written: the run succeeds;
#   2. every algorithm id replaced by 9 (no such alltoallv algorithm): MPI_Alltoallv fails — so
#      the file was read and used (an ignored file would run the fixed rules and succeed);
#   3. only the first size rule's id replaced: a run on P_FIRST ranks (in the first range) fails,
#      one on P_SECOND ranks (in the second) succeeds.
set -u
a2a_mpi=$1 mpiexec=$2 rules=$3 p_first=$4 p_second=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # RANKS RULES_FILE: exit code of one vendor MPI_Alltoallv benchmark under the rules
  timeout 120 "$mpiexec" --oversubscribe --mca btl self,vader -np "$1" \
    --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$2" \
    "$a2a_mpi" bench --algorithm vendor --workload uniform:max=64 -n 1 --warmup 0 \
    >"$work/output" 2>&1
}
fail() { echo "FAIL: $*"; cat "$work/output"; exit 1; }

grep -Eq '^0 [0-9]+ 0 0' "$rules" || fail "no message-size rule line in $rules"
run "$p_first" "$rules" || fail "the rules as written: the run failed"
echo "ok: the rules as written run (P=$p_first)"

sed -E 's/^0 [0-9]+ 0 0/0 9 0 0/' "$rules" >"$work/all_broken.rules"
run "$p_first" "$work/all_broken.rules" && fail "algorithm 9 everywhere still ran: Open MPI ignored the file"
echo "ok: algorithm 9 everywhere makes MPI_Alltoallv fail: Open MPI reads and applies the file"

awk '!done && /^0 [0-9]+ 0 0/ { sub(/^0 [0-9]+ 0 0/, "0 9 0 0"); done = 1 } { print }' "$rules" \
  >"$work/first_broken.rules"
run "$p_first" "$work/first_broken.rules" && fail "first rule broken, P=$p_first still ran"
run "$p_second" "$work/first_broken.rules" || fail "first rule broken, P=$p_second failed"
echo "ok: the first size rule applies to P=$p_first and not to P=$p_second"
