#!/usr/bin/env bash
# Simulator scaling: simulated messages per second, simulator wall time and peak RSS of one engine
# on one platform, by default SimGrid on polaris for parlogna r=2, parlogna r=sqrt(P) and scattered
# (batch 32) at P = 1,024, 4,096 and 16,384, uniform block sizes in [0, 1 KiB]. Prints Markdown
# table rows (docs/performance.md): "sim wall" is the simulation alone, "process wall" the whole
# `a2a run` (platform build and routes included).
# Usage: [ENGINE=simgrid|scale] [PLATFORM=polaris] [RANKS_PER_NODE=32] [ALGOS="parlogna:radix=2 ..."]
#        [WORKLOAD=uniform:max=1024] [VENDOR=openmpi] [A2A_ARGS="--max-memory 16G"]
#        bench/sim_scaling.sh [BUILD_DIR] [TIMEOUT_SECONDS] [P...]
# (in ALGOS, radix=SQRT stands for the integer square root of P)
set -uo pipefail
build=${1:-build}
limit=${2:-600}
shift 2 2>/dev/null || shift $#
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 4096 16384)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
engine=${ENGINE:-simgrid}
platform=${PLATFORM:-polaris}
per_node=${RANKS_PER_NODE:+ranks_per_node: $RANKS_PER_NODE}
vendor=${VENDOR:+vendor: $VENDOR}  # what `vendor` models (docs/scenarios.md); the platform's if unset
[ -n "${NO_HEADER:-}" ] || echo "| engine | platform | P | configuration | predicted | rounds | messages (data+meta) | sim wall | process wall | messages/s | peak RSS |"
[ -n "${NO_HEADER:-}" ] || echo "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for P in "${sizes[@]}"; do
  root=$(python3 -c "import math; print(math.isqrt($P))")
  for algo in ${ALGOS:-parlogna:radix=2 parlogna:radix=SQRT scattered:batch=32}; do
    algo=${algo//SQRT/$root}
    cat > "$work/s.yaml" <<YAML
platform: $platform
ranks: $P
$per_node
$vendor
engine: $engine
workload: ${WORKLOAD:-uniform:max=1024}
algorithms: ["$algo"]
YAML
    start=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$work/rss" timeout "$limit" "$build/a2a" run "$work/s.yaml" \
      --json "$work/r.json" ${A2A_ARGS:-} > /dev/null 2> "$work/err"
    code=$?
    wall=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")
    rss=$(tail -1 "$work/rss" 2>/dev/null)
    if [ $code -ne 0 ]; then
      # timeout(1) exits 124 at the limit; any other code is a2a's own (a refusal, an error).
      ran=$([ $code -eq 124 ] && echo "> $limit s" || echo "$wall s")
      echo "| $engine | $platform | $P | $algo | not finished (exit $code: $(head -c 120 "$work/err" | tr '\n|' '  ')) | | | | $ran | | ${rss:-?} KiB |"
      continue
    fi
    python3 - "$work/r.json" "$P" "$algo" "$rss" "$engine" "$platform" "$wall" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1])); r = doc["results"][0]
msgs = r["total"]["messages"] + r["total"]["meta_messages"]
wall = r["simulator_wall_seconds"]
print(f"| {sys.argv[5]} | {sys.argv[6]} | {sys.argv[2]} | {sys.argv[3]} | {r['predicted_seconds']*1e3:.3f} ms | {r['max_per_rank']['rounds']} | "
      f"{msgs:,} | {wall:.1f} s | {float(sys.argv[7]):.1f} s | {msgs/wall:,.0f} | {int(sys.argv[4])/1024:.0f} MiB |")
PY
  done
done
