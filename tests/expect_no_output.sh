#!/usr/bin/env bash
# Usage: expect_no_output.sh FILE... -- COMMAND...
# Passes when COMMAND fails (non-zero exit: an error, a refusal, or a kill mid-way) and leaves none
# of the FILEs behind, nor their temporary FILE.partial: outputs are written to a temporary file and
# renamed into place only when complete, so a failed run never leaves a file that looks complete.
# The FILEs are removed first, so a file left by an earlier run cannot make the test pass or fail.
set -u
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  files+=("$1")
  shift
done
shift
for file in "${files[@]}"; do rm -f "$file" "$file.partial"; done
output=$(timeout 300 "$@" 2>&1)
code=$?
echo "$output" | tail -20
echo "[exit code $code]"
if [ "$code" -eq 0 ]; then echo "FAIL: expected the command to fail"; exit 1; fi
status=0
for file in "${files[@]}"; do
  for left in "$file" "$file.partial"; do
    if [ -e "$left" ]; then echo "FAIL: $left was left behind"; status=1; fi
  done
done
[ $status -eq 0 ] && echo "ok: no output file left"
exit $status
