#!/usr/bin/env bash
# Usage: expect_error.sh REGEX COMMAND...
# Passes when COMMAND exits non-zero without a crash (exit code 1..125, no signal), its output
# matches REGEX, and it printed exactly one line containing "error:" (one clear line, no dump).
set -u
regex=$1
shift
output=$(timeout 120 "$@" 2>&1)
code=$?
echo "$output"
echo "[exit code $code]"
if [ "$code" -eq 0 ]; then echo "FAIL: expected a non-zero exit"; exit 1; fi
if [ "$code" -ge 124 ]; then echo "FAIL: timed out or crashed (exit $code)"; exit 1; fi
if ! grep -Eq -- "$regex" <<<"$output"; then echo "FAIL: output does not match /$regex/"; exit 1; fi
errors=$(grep -c "error:" <<<"$output")
if [ "$errors" -lt 1 ]; then echo "FAIL: no 'error:' line"; exit 1; fi
# mpirun may repeat a rank's line once per rank that hit it; they must all be the same line.
distinct=$(grep "error:" <<<"$output" | sed 's/rank [0-9]*/rank N/' | sort -u | wc -l)
if [ "$distinct" -ne 1 ]; then echo "FAIL: expected one distinct error line, got $distinct"; exit 1; fi
echo "ok"
