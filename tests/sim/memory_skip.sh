#!/usr/bin/env bash
# Usage: memory_skip.sh A2A
# A configuration that alone needs more than the memory limit is left out with one line naming it,
# what it ran and its estimate, and the others run (the vendor's linear exchange on the scale
# engine grows with P²: the README's 16,384-rank example must not be refused because of it).
set -u
a2a=$1
out=$("$a2a" run --max-memory 256M --set engine=scale --set platform=polaris --set ranks=1024 \
  --set "algorithms=[vendor, parlogna:radix=2]" 2>&1)
code=$?
echo "$out"
[ $code -eq 0 ] || { echo "FAIL: exit code $code"; exit 1; }
grep -Eq '^a2a run: skipped vendor: needs about [0-9.]+ MiB \(.*\(vendor \(openmpi: [a-z_]+\)\).*but the limit is 256.0 MiB' <<<"$out" ||
  { echo "FAIL: no line naming the skipped vendor and its estimate"; exit 1; }
grep -Eq '^1 +parlogna radix=2 ' <<<"$out" || { echo "FAIL: parlogna did not run"; exit 1; }
echo ok
