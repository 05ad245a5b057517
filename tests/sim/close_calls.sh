#!/usr/bin/env bash
# Usage: close_calls.sh A2A
# `a2a run` on the scale engine names the configurations closer to the fastest than its batched
# re-solving can err (sim/batching_error.hpp), in the table and in --json, and says how to rank
# them; it names none when solving exactly (tolerance 0, or the SimGrid engine) or when the
# fastest leads by more. parlogna radix 2 and two-phase Bruck send the same messages (identical
# predictions); padded Bruck is far slower.
set -u
a2a=$1
run=("$a2a" run --set platform=tiny --set ranks=16 --set engine=scale
  --set "algorithms=[padded_bruck, {name: parlogna, radix: 2}, two_phase_bruck]")
fail() { echo "FAIL: $*"; exit 1; }
json=$(mktemp)
trap 'rm -f "$json"' EXIT
out=$("${run[@]}" --json "$json" 2>/dev/null) || fail "a2a run failed"
echo "$out"
grep -q '^# rows 1-2 are within 3.5 % of the fastest' <<<"$out" || fail "the close call is not named"
grep -q -- '--set simulation.tolerance=0.01' <<<"$out" || fail "no way to rank them is given"
python3 - "$json" <<'PY' || fail "--json does not name the two"
import json, sys
doc = json.load(open(sys.argv[1]))
assert abs(doc["batching_error_bound"] - 0.035) < 1e-12, doc["batching_error_bound"]
assert sorted(doc["too_close_to_rank"]) == ["parlogna radix=2", "two_phase_bruck"], doc["too_close_to_rank"]
PY
for exact in "--set simulation.tolerance=0" "--set engine=simgrid"; do
  out=$("${run[@]}" $exact --json "$json" 2>/dev/null) || fail "a2a run $exact failed"
  ! grep -q 'within .* of the fastest' <<<"$out" || fail "a close call named with $exact"
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["too_close_to_rank"] == [] and d["batching_error_bound"] == 0' "$json" ||
    fail "--json names close calls with $exact"
done
out=$("$a2a" run --set platform=tiny --set ranks=16 --set engine=scale \
  --set "algorithms=[padded_bruck, {name: parlogna, radix: 2}]" 2>/dev/null) || fail "a2a run failed"
! grep -q 'within .* of the fastest' <<<"$out" || fail "a close call named where the lead is large"
echo ok
