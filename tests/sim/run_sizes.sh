#!/usr/bin/env bash
# The scale engine sizes messages and copies from the algorithms' block runs (Comm::isend_runs,
# copy_runs) instead of their pieces; with simulation.check_sizes it compares the two on every
# message and copy and fails with a contract violation when they differ. This runs the whole
# catalog that way for P = 1, 2, 3, primes, powers of two and non-powers of the radix, with random,
# equal and mostly empty blocks, radices 2, 3, 5 and P - 1, and hierarchical configurations with
# 1, 2, 4 and P ranks per node.
# Usage: run_sizes.sh A2A
set -euo pipefail
a2a=$1
count=0
for workload in uniform:max=1024 constant:size=64 sparse:density=0.3; do
  for P in 1 2 3 7 12 13 16 24 32 37; do
    algos='all'
    for r in 3 5 $((P - 1)); do
      [ "$r" -ge 2 ] && [ "$r" -le "$P" ] || continue
      algos+=", \"parlogna:radix=$r\", \"bruck_radix:radix=$r\""
    done
    for Q in 1 2 4 $P; do
      [ $((P % Q)) -eq 0 ] || continue
      r=$(( Q >= 3 ? 3 : 2 ))
      algos+=", \"parlinna_coalesced:ranks_per_node=$Q,radix=$r,batch=2\""
      algos+=", \"parlinna_staggered:ranks_per_node=$Q,radix=$r,batch=3\""
    done
    if ! out=$("$a2a" run --set engine=scale --set simulation.check_sizes=true --set ranks=$P \
                 --set workload=$workload --set "algorithms=[$algos]" 2>&1); then
      echo "FAIL: workload $workload, P = $P:"
      echo "$out" | grep -v "skipped" | tail -5
      exit 1
    fi
    count=$((count + $(echo "$out" | grep -cE '^[0-9]+ ')))
  done
done
[ "$count" -ge 300 ] || { echo "FAIL: only $count configurations ran"; exit 1; }
echo "ok: $count configurations, every message's and copy's runs equal its pieces"
