#!/usr/bin/env bash
# Issue 15's throughput table, before and after: two a2a binaries on each target configuration.
# THREADS=1 (the default) runs them at the same time, one per core (`simulation.threads: 1` each),
# so that both see the same host (its speed drifts by tens of percent within an hour;
# docs/performance.md). THREADS=2 or more gives each run that many threads and runs the two one
# after the other instead. Either way the binary that goes first alternates from one configuration
# to the next. Prints one Markdown row per configuration: messages (data + metadata, from the
# newer binary's JSON), each binary's prediction, simulation wall time, messages per second and
# peak RSS (/usr/bin/time), and new / old.
#
# Usage: [TARGETS="..."] [P=131072] [TIMEOUT=900] [THREADS=1] \
#          bench/targets_side_by_side.sh OLD_A2A NEW_A2A PLATFORM...
#   PLATFORM: a preset name or a platform file both binaries can read (an old binary does not
#   know the newer presets or keys: give both the old preset's file for the same model).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: bench/targets_side_by_side.sh OLD_A2A NEW_A2A PLATFORM..." >&2
  exit 2
fi
old=$1 new=$2
shift 2
for f in "$old" "$new"; do
  [ -x "$f" ] || { echo "targets_side_by_side.sh: $f: not an executable" >&2; exit 2; }
done
targets=${TARGETS:-"parlogna:radix=2 parlogna:radix=4 parlogna:radix=16 two_phase_bruck padded_bruck"}
ranks=${P:-131072}
limit=${TIMEOUT:-900}
threads=${THREADS:-1}
[[ $threads =~ ^[1-9][0-9]*$ ]] || { echo "targets_side_by_side.sh: THREADS=$threads: not a positive integer" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # BINARY NAME SCENARIO
  /usr/bin/time -f "%M" -o "$work/$2.rss" timeout "$limit" \
    "$1" run "$3" --json "$work/$2.json" --set simulation.threads="$threads" > /dev/null 2> "$work/$2.err" ||
    { echo "targets_side_by_side.sh: $1 on $3 failed or timed out: $(tail -c 300 "$work/$2.err")" >&2
      return 1; }
}

echo "| platform | configuration | messages (data+meta) | predicted, old | predicted, new | sim wall, old | sim wall, new | new / old | messages/s, old | messages/s, new | peak RSS, old | peak RSS, new |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
i=0
for platform in "$@"; do
  for target in $targets; do
    i=$((i + 1))
    scenario="$work/scenario$i.yaml"
    printf 'engine: scale\nplatform: %s\nranks: %s\nworkload: uniform:max=1024\nalgorithms: ["%s"]\n' \
      "$platform" "$ranks" "$target" > "$scenario"
    if [ $((i % 2)) -eq 1 ]; then order="old new"; else order="new old"; fi
    if [ "$threads" -eq 1 ]; then
      read -r one two <<< "$order"
      run "${!one}" "$one" "$scenario" & first=$!; run "${!two}" "$two" "$scenario" & second=$!
      wait $first && wait $second || exit 1
    else
      for side in $order; do run "${!side}" "$side" "$scenario" || exit 1; done
    fi
    python3 - "$work" "$platform" "$target" <<'PY'
import json, os, sys
work, platform, target = sys.argv[1:]
o = json.load(open(os.path.join(work, "old.json")))["results"][0]
n = json.load(open(os.path.join(work, "new.json")))["results"][0]
rss = lambda side: int(open(os.path.join(work, side + ".rss")).read().split()[-1]) // 1024
messages = (n["messages_per_rank"] + n["meta_messages_per_rank"]) * n["ranks"]
wo, wn = o["simulator_wall_seconds"], n["simulator_wall_seconds"]
print(f"| {os.path.basename(platform)} | {target} | {messages:,} | {o['predicted_seconds'] * 1e3:.3f} ms "
      f"| {n['predicted_seconds'] * 1e3:.3f} ms | {wo:.1f} s | {wn:.1f} s | {wn / wo:.3f} "
      f"| {messages / wo:,.0f} | {messages / wn:,.0f} | {rss('old'):,} MiB | {rss('new'):,} MiB |")
PY
  done
done
