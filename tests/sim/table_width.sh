#!/usr/bin/env bash
# Usage: table_width.sh A2A
# `a2a run` prints a table that fits 100 columns when standard output is not a terminal (the
# longest configuration label of the catalog included), says which columns it left out, names what
# `vendor` ran, says which keys --set replaced, and prints every column with --wide.
set -u
a2a=$1
run=("$a2a" run --set platform=tiny --set ranks=16
  --set "algorithms=[vendor, spread_out, {name: parlinna_coalesced, ranks_per_node: 4, radix: 2, batch: 2}]")
fail() { echo "FAIL: $*"; exit 1; }
narrow=$("${run[@]}" 2>/dev/null) || fail "a2a run failed"
echo "$narrow"
widest=$(awk '{ if (length > w) w = length } END { print w }' <<<"$narrow")
[ "$widest" -le 100 ] || fail "a line of $widest characters"
grep -Eq '^[0-9]+ +vendor \(openmpi: [a-z_]+\) ' <<<"$narrow" || fail "vendor not named with what it ran"
grep -q -- '--wide shows them' <<<"$narrow" || fail "no note on the columns left out"
grep -q '^# a2a run: embedded default scenario with --set platform, ranks, algorithms$' <<<"$narrow" ||
  fail "the heading does not name the keys --set replaced"
wide=$("${run[@]}" --wide 2>/dev/null) || fail "a2a run --wide failed"
grep -q 'time by phase (mean)' <<<"$wide" || fail "--wide left out the phases"
echo ok
