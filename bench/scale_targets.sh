#!/usr/bin/env bash
# The scale engine's targets (issue 15; docs/performance.md), measured by bench/sim_scaling.sh: one
# `a2a run` per row, wall time and peak RSS by /usr/bin/time, a row "not finished" when the time
# limit is hit or the memory guard refuses the run (its message is in the row). Uniform blocks
# <= 1 KiB unless said otherwise; 32 ranks per node.
#   1. P = 131,072 on polaris_scaled (the 131,072-rank dragonfly) and fugaku: parlogna r = 2, 4, 16,
#      362, two_phase_bruck, padded_bruck, parlinna_coalesced and parlinna_staggered r = 4 batch 8;
#   2. scattered batch 32 at P = 32,768 on polaris_scaled, and the vendor baselines at P = 16,384
#      on fugaku: `vendor` as Open MPI chooses it (its linear exchange) and spread_out;
#   3. P = 4,096 side by side, SimGrid engine then scale engine (the speed-up is their ratio);
#   4. P = 1,048,576 on fugaku_full, 48 ranks per node, constant 512 B blocks (uniform sizes drawn
#      per block cost Theta(P^2 log P): docs/performance.md): parlogna r = 2 and two_phase_bruck.
#      About 10 minutes and 7-10 GiB each on the 2-core machine.
# Parts 1, 2 and 4 are issue 15's items 1-3; each row there needs <= 10 minutes and <= 16 GB.
# Usage: [TARGETS="..."] [PLATFORMS="polaris_scaled fugaku"] bench/scale_targets.sh [BUILD_DIR]
#        [TIMEOUT_SECONDS] [PART...]   (PART: 1 2 3 4; default 1 2 3; TARGETS and PLATFORMS narrow
#        part 1)
set -uo pipefail
here=$(dirname "$0")
build=${1:-build}
limit=${2:-660}
shift 2 2>/dev/null || shift $#
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(1 2 3)
targets=${TARGETS:-"parlogna:radix=2 parlogna:radix=4 parlogna:radix=16 parlogna:radix=362 two_phase_bruck padded_bruck parlinna_coalesced:radix=4,batch=8 parlinna_staggered:radix=4,batch=8"}
header=
for part in "${parts[@]}"; do
  case $part in
    1) for platform in ${PLATFORMS:-polaris_scaled fugaku}; do
         ENGINE=scale PLATFORM=$platform RANKS_PER_NODE=32 ALGOS=$targets NO_HEADER=$header \
           "$here/sim_scaling.sh" "$build" "$limit" 131072
         header=1
       done ;;
    2) ENGINE=scale PLATFORM=polaris_scaled RANKS_PER_NODE=32 ALGOS="scattered:batch=32" \
         NO_HEADER=$header "$here/sim_scaling.sh" "$build" "$limit" 32768
       ENGINE=scale PLATFORM=fugaku RANKS_PER_NODE=32 VENDOR=openmpi ALGOS="vendor spread_out" \
         NO_HEADER=1 "$here/sim_scaling.sh" "$build" "$limit" 16384
       header=1 ;;
    3) for engine in simgrid scale; do
         ENGINE=$engine ALGOS="parlogna:radix=2 two_phase_bruck parlogna:radix=64" NO_HEADER=$header \
           "$here/sim_scaling.sh" "$build" "$limit" 4096
         header=1
       done ;;
    4) ENGINE=scale PLATFORM=fugaku_full WORKLOAD=constant:size=512 \
         ALGOS="parlogna:radix=2 two_phase_bruck" NO_HEADER=$header \
         "$here/sim_scaling.sh" "$build" "$limit" 1048576
       header=1 ;;
    *) echo "scale_targets.sh: unknown part '$part' (known: 1 2 3 4)" >&2
       exit 2 ;;
  esac
done
